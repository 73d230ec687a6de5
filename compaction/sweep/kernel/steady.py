"""The calls of an epoch after L1's first cut, many at once.

Once the history has been cut, every later call of the epoch that adds messages cuts again where the
tail's length says (TAIL = MAX_MESSAGES - KEEP_HEAD from the end, one earlier when that splits a tool
pair), the marker counting the messages it replaces; L2's frontiers move with the newest results; the
size is prefix sums. None of it depends on the call before but through the tail's start, which the cut
puts at the same place whatever it was (as long as the new start is past the old one), so a run of calls
is a handful of array operations. A call where that, or what the cache compares, is not the ordinary
case (a head result becomes a placeholder, the marker and the tail's first message are alike, L4 fires)
ends the run, and the walk goes on call by call (walk.py).
"""

from dataclasses import dataclass

import numpy as np

from compaction.layers.snip import marker_size

MARKER_BASE = marker_size(1) - 1  # the marker's size but for its count's digits


@dataclass(frozen=True, eq=False)
class Arrays:
    """A variant's prefix sums and the conversation's flags, as numpy arrays."""

    joined_before: np.ndarray
    calls: np.ndarray
    uses: np.ndarray
    answers: np.ndarray
    blocks: np.ndarray
    sizes: np.ndarray
    deltas: np.ndarray
    long_sums: np.ndarray
    first_keys: np.ndarray
    at_call: np.ndarray


@dataclass(frozen=True, eq=False)
class Run:
    """Calls first..first+len-1 of a steady run: per call what walk.Walk keeps, and where it ends."""

    count: np.ndarray
    size: np.ndarray
    acted: np.ndarray
    shared: np.ndarray
    marker: np.ndarray
    tail: np.ndarray
    frontier: np.ndarray
    head_frontier: int
    tail_before: np.ndarray  # each call's tail start before its cut (the messages it snipped)


def digits(numbers: np.ndarray) -> np.ndarray:
    """len(str(n)) of each positive n."""
    found = np.ones(len(numbers), dtype=np.int64)
    bound = 10
    while bound <= (int(numbers.max()) if len(numbers) else 0):
        found += numbers >= bound
        bound *= 10
    return found


def steady_run(arrays: Arrays, first: int, last: int, state: tuple, settings, flags: tuple, pair) -> Run | None:
    """The longest run of ordinary calls from `first` (before `last`), or None when `first` is not one.
    `state`: (start, has_summary, summary_size, head, tail, marker, head_frontier, frontier) after the call
    before; `flags` (L3, L1, L2); `pair(before, before_frontier, now, now_frontier)` the characters of
    the leading blocks two tail messages share (None: the messages are equal)."""
    start, has, summary_size, head, tail, marker, head_frontier, frontier = state
    l3, l1, l2 = flags
    keep, keep_tail, limit = settings.keep_recent, settings.max_messages - settings.keep_head, settings.context_limit
    calls = np.arange(first, last)
    end = arrays.joined_before[arrays.calls[first:last]]
    cut = end - keep_tail
    adjusted = arrays.answers[cut] & arrays.uses[np.maximum(cut - 1, 0)] & (cut >= 1)
    tails = cut - adjusted
    before = np.concatenate(([tail], tails[:-1]))
    ordinary = cut - 1 >= before  # the cut lies past the old start: its place is the tail's alone
    blocks = arrays.blocks
    head_blocks = int(blocks[start + head])
    wanted = np.minimum(head_blocks, head_blocks + blocks[end] - blocks[tails] - keep)
    head_front = np.maximum(head_frontier, np.maximum.accumulate(wanted))
    long_sums = arrays.long_sums
    ordinary &= long_sums[head_front] == long_sums[head_frontier]  # no head result becomes a placeholder
    markers = 1 + tails - before
    previous_markers = np.concatenate(([marker], markers[:-1]))
    same = markers == previous_markers
    ordinary &= ~same | (tails != before)
    alike = same & (arrays.first_keys[before] == arrays.first_keys[tails])  # compared as they are, below
    fronts = np.maximum(blocks[end] - keep, blocks[start])
    sizes, deltas = arrays.sizes, arrays.deltas
    head_chars = summary_size + int(sizes[start + head] - sizes[start]) + int(deltas[head_frontier] - deltas[blocks[start]])
    marker_chars = MARKER_BASE + digits(markers)
    tail_low = blocks[tails]
    tail_chars = sizes[end] - sizes[tails] + deltas[np.maximum(fronts, tail_low)] - deltas[tail_low]
    count = has + head + 1 + end - tails
    size = head_chars + marker_chars + tail_chars + 2 * count
    ordinary &= size <= limit
    stops = np.flatnonzero(~ordinary)
    length = int(stops[0]) if len(stops) else len(calls)
    previous_fronts = np.concatenate(([frontier], fronts[:-1]))
    blocks_shared = np.zeros(length, dtype=np.int64)
    for at in np.flatnonzero(alike[:length]).tolist():
        found = pair(int(before[at]), int(previous_fronts[at]), int(tails[at]), int(fronts[at]))
        if found is None:  # the two messages are equal: the prompts share more, call by call
            length = at
            break
        blocks_shared[at] = found
    if not length:
        return None
    take = slice(0, length)
    low = np.maximum(previous_fronts, tail_low)
    acted = l1 | np.where(arrays.at_call[first:last] >= start, l3, 0) | \
        np.where((fronts > low) & (long_sums[np.maximum(fronts, low)] > long_sums[low]), l2, 0)
    items = has + head + np.where(same, 1, 0)
    shared = head_chars + np.where(same, marker_chars, 0) + 2 * items
    return Run(count[take], size[take], acted[take], shared[take] + blocks_shared[take], markers[take], tails[take],
               fronts[take],
               int(head_front[length - 1]), before[take])
