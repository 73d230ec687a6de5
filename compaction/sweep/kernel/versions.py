"""The messages a cell's history holds, built only when something must read them (a summary, the rare
comparison of two versions for the cache), and shared by every cell of the grid: the same version of a
message is one object, so the offline summariser's notes of it are worked out once.

A joined message is in one of a few versions: as L3 left it, with its first `p` long tool results
replaced by the placeholder (L2 replaces them oldest first, so `p` says which). The loop builds each
version from the previous one the same way (`{**block, "content": placeholder}`), so these are equal to
the loop's, key order included.
"""

from compaction.layers.snip import snip_marker
from compaction.model.history import History
from compaction.model.markers import PLACEHOLDER
from compaction.sweep.kernel.columns import Columns
from compaction.sweep.kernel.persisted import Persisted, Placeholders


class Versions:
    def __init__(self, prepared: History, columns: Columns, persisted: Persisted, placeholders: Placeholders):
        self.originals, self.columns = prepared.originals, columns
        self.persisted, self.placeholders = persisted, placeholders
        # read call after call for every message a summary or a cache comparison builds: plain lists
        self._before, self._joined = columns.blocks_before.tolist(), columns.joined.tolist()
        self._long_sums, self._long = placeholders.long_sums.tolist(), placeholders.long.tolist()
        self._where = columns.block_position.tolist()
        self._made: dict[tuple[int, int], dict] = {}
        self._markers: dict[int, dict] = {}

    def placeholdered(self, position: int, frontier: int) -> int:
        """How many of the message's long results are placeholders while L2's frontier is `frontier`."""
        low = self._before[position]
        if frontier <= low:
            return 0
        high = self._before[position + 1]
        sums = self._long_sums
        return sums[frontier if frontier < high else high] - sums[low]

    def message(self, position: int, replaced: int = 0) -> dict:
        """The joined message at `position` as L3 left it, its first `replaced` long results placeholders."""
        if not replaced:
            base = self.persisted.messages.get(position)
            return self.originals[self._joined[position]] if base is None else base
        key = (position, replaced)
        found = self._made.get(key)
        if found is None:
            base = self.message(position)
            long, where = self._long, self._where
            content = list(base["content"])
            for rank in [r for r in range(self._before[position], self._before[position + 1]) if long[r]][:replaced]:
                j = where[rank]
                content[j] = {**content[j], "content": PLACEHOLDER}
            found = self._made[key] = {**base, "content": content}
        return found

    def run(self, start: int, end: int, frontier: int) -> list[dict]:
        """The joined messages start..end-1 while L2's frontier is `frontier` (as `message` gives each)."""
        before = self._before
        if frontier <= before[start]:  # no placeholder among them
            made = self.persisted.messages
            originals, joined = self.originals, self._joined
            return [made.get(k) or originals[joined[k]] for k in range(start, end)]
        return [self.message(k, self.placeholdered(k, frontier)) for k in range(start, end)]

    def marker(self, count: int) -> dict:
        found = self._markers.get(count)
        if found is None:
            found = self._markers[count] = snip_marker(count)
        return found
