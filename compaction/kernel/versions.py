"""The messages a cell's history holds, built only when something must read them (a summary, the rare
comparison of two versions for the cache), and shared by every cell of the grid: the same version of a
message is one object, so the offline summariser's notes of it are worked out once.

A joined message is in one of a few versions: as L3 left it, with its first `p` long tool results
replaced by the placeholder (L2 replaces them oldest first, so `p` says which). The loop builds each
version from the previous one the same way (`{**block, "content": placeholder}`), so these are equal to
the loop's, key order included.
"""

from compaction.kernel.columns import Columns
from compaction.kernel.persisted import Persisted, Placeholders
from compaction.layers.snip import snip_marker
from compaction.model.history import History
from compaction.model.markers import PLACEHOLDER


class Versions:
    def __init__(self, prepared: History, columns: Columns, persisted: Persisted, placeholders: Placeholders):
        self.originals, self.columns = prepared.originals, columns
        self.persisted, self.placeholders = persisted, placeholders
        self._made: dict[tuple[int, int], dict] = {}
        self._markers: dict[int, dict] = {}

    def placeholdered(self, position: int, frontier: int) -> int:
        """How many of the message's long results are placeholders while L2's frontier is `frontier`."""
        before = self.columns.blocks_before
        low, high = int(before[position]), int(before[position + 1])
        if frontier <= low:
            return 0
        sums = self.placeholders.long_sums
        return int(sums[min(frontier, high)] - sums[low])

    def message(self, position: int, replaced: int = 0) -> dict:
        """The joined message at `position` as L3 left it, its first `replaced` long results placeholders."""
        base = self.persisted.messages.get(position)
        if base is None:
            base = self.originals[int(self.columns.joined[position])]
        if not replaced:
            return base
        key = (position, replaced)
        found = self._made.get(key)
        if found is None:
            low = int(self.columns.blocks_before[position])
            high = int(self.columns.blocks_before[position + 1])
            long, where = self.placeholders.long, self.columns.block_position
            content = list(base["content"])
            for rank in [r for r in range(low, high) if long[r]][:replaced]:
                j = int(where[rank])
                content[j] = {**content[j], "content": PLACEHOLDER}
            found = self._made[key] = {**base, "content": content}
        return found

    def marker(self, count: int) -> dict:
        found = self._markers.get(count)
        if found is None:
            found = self._markers[count] = snip_marker(count)
        return found
