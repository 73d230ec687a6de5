"""What one call of a cell sends, as a few numbers over the joined messages, and its arithmetic.

Within an epoch (the history since the last summary, or since the start) the history is always:

- the summary that began the epoch, if any (position 0);
- before L1 has first cut the epoch: every joined message from `start` to `end`;
- after: a head (the first `head` joined messages of the epoch), the snip marker of `marker` messages,
  and a tail (the joined messages from `tail` to `end`).

L2's placeholders are frontiers over the block ranks: every long result ranked below `frontier` in the
tail (or in the whole epoch before the first cut) is a placeholder, and below `head_frontier` in the
head. A call whose L4 fired sends its new summary alone. So the size of any prefix of the history is a
few differences of prefix sums (`prefix_chars`), and a message at any position can be built (`item`).
"""

import numpy as np

from compaction.layers.snip import marker_size
from compaction.sweep.kernel.columns import Columns
from compaction.sweep.kernel.persisted import Persisted, Placeholders
from compaction.sweep.kernel.steady import Arrays
from compaction.sweep.kernel.versions import Versions

PRE, SNIPPED, SUMMARY = 0, 1, 2


class Layout:
    __slots__ = ("kind", "summary", "start", "head", "marker", "tail", "end", "head_frontier", "frontier",
                 "count", "size")

    def __init__(self, kind: int, summary, start: int, head: int, marker: int, tail: int, end: int,
                 head_frontier: int, frontier: int):
        self.kind, self.summary, self.start, self.head, self.marker = kind, summary, start, head, marker
        self.tail, self.end, self.head_frontier, self.frontier = tail, end, head_frontier, frontier
        self.count = self.size = 0

    @property
    def has_summary(self) -> int:
        return 0 if self.summary is None else 1

    @property
    def head_items(self) -> int:
        """Positions before the marker (the summary and the head)."""
        return self.has_summary + self.head


class Arithmetic:
    """Prefix sums of one cell's variant (its L3 and L2 minimum) over the conversation's columns."""

    def __init__(self, columns: Columns, persisted: Persisted, placeholders: Placeholders, versions: Versions):
        self.sizes = persisted.size_sums.tolist()
        self.deltas = placeholders.delta_sums.tolist()
        self.blocks = columns.blocks_before.tolist()
        self.versions = versions
        self.arrays = Arrays(columns.joined_before, columns.calls, np.asarray(columns.uses, dtype=bool),
                             np.asarray(columns.answers, dtype=bool), columns.blocks_before, persisted.size_sums,
                             placeholders.delta_sums, placeholders.long_sums, columns.first_codes,
                             np.asarray(persisted.at_call, dtype=np.int64))

    def run_chars(self, start: int, end: int, frontier: int) -> int:
        """Characters of the joined messages start..end-1 with the long results below `frontier` replaced."""
        blocks, deltas = self.blocks, self.deltas
        low, high = blocks[start], blocks[end]
        cut = low if frontier < low else high if frontier > high else frontier
        return self.sizes[end] - self.sizes[start] + deltas[cut] - deltas[low]

    def prefix_chars(self, layout: Layout, items: int) -> int:
        """Sum of the sizes of the first `items` messages of the history `layout` sends."""
        if items <= 0:
            return 0
        total = 0
        if layout.summary is not None:
            total, items = layout.summary.size, items - 1
            if layout.kind == SUMMARY or not items:
                return total
        start = layout.start
        if layout.kind == PRE:
            return total + self.run_chars(start, start + items, layout.frontier)
        if items <= layout.head:
            return total + self.run_chars(start, start + items, layout.head_frontier)
        total += self.run_chars(start, start + layout.head, layout.head_frontier) + marker_size(layout.marker)
        rest = items - layout.head - 1
        return total + self.run_chars(layout.tail, layout.tail + rest, layout.frontier)

    def item(self, layout: Layout, position: int) -> dict:
        """The message at `position` of the history `layout` sends."""
        if layout.summary is not None:
            if position == 0:
                return layout.summary.message
            position -= 1
        versions = self.versions
        if layout.kind == PRE or position < layout.head:
            joined = layout.start + position
            frontier = layout.frontier if layout.kind == PRE else layout.head_frontier
        elif position == layout.head:
            return versions.marker(layout.marker)
        else:
            joined, frontier = layout.tail + position - layout.head - 1, layout.frontier
        return versions.message(joined, versions.placeholdered(joined, frontier))

    def items(self, layout: Layout) -> list[dict]:
        """Every message of the history `layout` sends (a PRE or SNIPPED layout), as `item` gives each."""
        versions = self.versions
        found = [] if layout.summary is None else [layout.summary.message]
        if layout.kind == PRE:
            return found + versions.run(layout.start, layout.end, layout.frontier)
        return (found + versions.run(layout.start, layout.start + layout.head, layout.head_frontier)
                + [versions.marker(layout.marker)] + versions.run(layout.tail, layout.end, layout.frontier))
