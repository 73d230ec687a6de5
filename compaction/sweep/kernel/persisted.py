"""L3 over a whole conversation at once, for one set of L3 settings: which message each call's L3 saves
to disk, and what it leaves.

L3 looks only at the newest message of the history a call sends, and that message is always the
original the call's turn brought (nothing else has touched it yet), so what L3 does at a call depends on
the conversation and L3's three settings only, never on the other settings or on what the other layers
did before. Worked out once per grid with the loop's own function (`persist_largest`), into the store the
grid's cells share, so the previews quote the same paths as the loop's.
"""

from dataclasses import dataclass, field

import numpy as np

from compaction.layers.persist import persist_largest, result_lengths
from compaction.model.history import History
from compaction.model.markers import PLACEHOLDER
from compaction.model.messages import content_chars
from compaction.model.settings import Settings
from compaction.model.sizes import message_size
from compaction.storage.outputs import OutputStore
from compaction.sweep.kernel.columns import Columns


class Outside(Exception):
    """What the kernel does not model exactly: the cells run the loop, and say why."""


@dataclass(eq=False)
class Persisted:
    at_call: list[int]  # per call: the joined position whose results L3 saves before it, or -1
    messages: dict[int, dict]  # joined position -> the message L3 leaves
    events: dict[int, list]  # joined position -> its PersistedOutput records
    sizes: np.ndarray  # per joined message: its size once L3 has seen it
    size_sums: np.ndarray
    block_chars: np.ndarray  # per block: content_chars of its content once L3 has seen it
    block_repr: np.ndarray  # per block: len(repr(content)) likewise
    block_saved: np.ndarray  # per block: L3 replaced it by a preview
    _placeholders: dict = field(default_factory=dict)

    def placeholders(self, minimum: int) -> "Placeholders":
        found = self._placeholders.get(minimum)
        if found is None:
            found = self._placeholders[minimum] = Placeholders.of(self, minimum)
        return found


@dataclass(frozen=True, eq=False)
class Placeholders:
    """The blocks L2 replaces when they leave its window (longer than MIN_PLACEHOLDER_CHARS) and what each
    replacement changes, as prefix sums over the block ranks."""

    long: np.ndarray  # per block: L2 replaces it once it leaves the window
    delta_sums: np.ndarray  # prefix sums of the size change of each long block's placeholder (NB + 1)
    long_sums: np.ndarray  # prefix counts of long blocks (NB + 1)
    next_long: list[int]  # per rank r (and NB): the first long rank >= r (NB: none)

    @classmethod
    def of(cls, persisted: Persisted, minimum: int) -> "Placeholders":
        long = persisted.block_chars > minimum
        deltas = np.where(long, len(repr(PLACEHOLDER)) - persisted.block_repr, 0)
        count = len(long)
        delta_sums = np.zeros(count + 1, dtype=np.int64)
        np.cumsum(deltas, out=delta_sums[1:])
        long_sums = np.zeros(count + 1, dtype=np.int64)
        np.cumsum(long, out=long_sums[1:])
        ranks = np.flatnonzero(long)
        next_long = np.searchsorted(ranks, np.arange(count + 1), side="left")
        found = np.append(ranks, count)[next_long]
        return cls(long, delta_sums, long_sums, found.tolist())


def persisted_of(prepared: History, columns: Columns, settings: Settings, store: OutputStore) -> Persisted:
    """What L3 does over the conversation at `settings`' MAX_BYTES, PERSIST_THRESHOLD and PREVIEW_CHARS."""
    messages = prepared.originals
    sizes = columns.sizes.copy()
    block_chars, block_repr = columns.block_chars.copy(), columns.block_repr.copy()
    saved = np.zeros(len(block_chars), dtype=bool)
    at_call = [-1] * columns.call_count
    kept: dict[int, dict] = {}
    events: dict[int, list] = {}
    previous = -1
    for call in range(columns.call_count):
        position = columns.last_before(call)
        if position < 0:
            continue
        if position == previous:  # no message joined since the last call: L3 would look at its output again
            raise Outside("a call follows another with no message joining between them")
        previous = position
        origin = int(columns.joined[position])
        message = messages[origin]
        blocks = prepared.result_blocks.positions(origin)
        if not blocks:
            continue
        lengths, total = result_lengths(message, blocks)
        if total <= settings.max_bytes:
            continue
        done = persist_largest(message, lengths, total, origin, prepared.tool_name, settings, store)
        if done is None:
            continue
        new, records = done
        at_call[call], kept[position], events[position] = position, new, records
        sizes[position] = message_size(new)
        first = int(columns.blocks_before[position])
        for rank, j in enumerate(blocks, start=first):
            if new["content"][j] is not message["content"][j]:
                content = new["content"][j].get("content", "")
                block_chars[rank], block_repr[rank], saved[rank] = content_chars(content), len(repr(content)), True
    size_sums = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(sizes, out=size_sums[1:])
    return Persisted(at_call, kept, events, sizes, size_sums, block_chars, block_repr, saved)

