"""The settings one call of a replay read, each with the range of its values that would have done the same.

The sweep runs the cells of a grid together while they agree: a replay whose history never passed
CONTEXT_LIMIT 60,000 did exactly the same at 70,000, up to the call where it first does. So an
incremental step reads its settings through `SettingsReads`: "is KEEP_RECENT at least 4" records that
the answer holds for KEEP_RECENT in [4, maximum] (or [minimum, 3]); a value used as it is records that
value alone. After the call, the cells whose settings lie in every recorded range did the same and stay
together; the others go their own way from the state before the call (sweep/branches.py). A single
replay reads through the same object and ignores the ranges.
"""

from compaction.model.settings import LIMITS, Settings


class SettingsReads:
    __slots__ = ("settings", "ranges")

    def __init__(self, settings: Settings):
        self.settings = settings
        self.ranges: dict[str, tuple[int, int]] = {}

    def at_least(self, name: str, amount: int) -> bool:
        """Whether the setting `name` is at least `amount`."""
        value = getattr(self.settings, name)
        ranges = self.ranges
        low, high = ranges.get(name) or LIMITS[name]
        if value >= amount:
            ranges[name] = (amount if amount > low else low, high)
            return True
        ranges[name] = (low, amount - 1 if amount - 1 < high else high)
        return False

    def value(self, name: str) -> int:
        """The setting `name`, used as it is: only that value does the same."""
        value = getattr(self.settings, name)
        self.ranges[name] = (value, value)  # within any range read before: the value is in each
        return value

    def start_call(self) -> None:
        self.ranges.clear()
