"""One cell's calls, walked over the layouts of its histories (layout.py): what L3, L1, L2 and L4 do at
each call, the size and messages it sends, where its prompt stops sharing the previous one, and when
each message leaves the history and each result becomes a placeholder. Integers only, no message is
built (but for a summary, or two versions compared at a cache break): this is the loop's pipeline
(layers/incremental/pipeline.py) restated over the layouts, call for call."""

from dataclasses import dataclass

import numpy as np

from compaction.layers.snip import marker_size
from compaction.measures.cache import shared_block_chars
from compaction.model.settings import Settings
from compaction.sweep.kernel.columns import Columns
from compaction.sweep.kernel.layout import PRE, SNIPPED, SUMMARY, Arithmetic, Layout
from compaction.sweep.kernel.persisted import Persisted, Placeholders
from compaction.sweep.kernel.steady import Run, steady_run
from compaction.sweep.kernel.summaries import Summaries, Summary

L3, L1, L2, L4 = 1, 2, 4, 8
ACTED = ((L3, "L3"), (L1, "L1"), (L2, "L2"), (L4, "L4"))


@dataclass(eq=False)
class Walk:
    """Per call: what it sends and did; per joined message and per block: when it left, when replaced."""

    count: list[int]  # messages sent
    size: list[int]  # len(str(messages sent))
    acted: list[int]  # L3 | L1 | L2 | L4 bits
    whole: list[bool]  # the prompt starts with all of the previous call's
    shared: list[int]  # characters of its messages it shares with the previous prompt (cache.shared_prefix_chars)
    summary: list[Summary | None]  # the summary written before the call
    made: list[tuple[Summary | None, int]]  # the texts layers made in what it sends: (summary, marker count)
    death: list[int]  # per joined message: the first call whose history no longer holds it (C: none)
    replaced: list[int]  # per block: the first call at which it is a placeholder (C: never)


def walk(columns: Columns, persisted: Persisted, placeholders: Placeholders, arithmetic: Arithmetic,
         summaries: Summaries, settings: Settings) -> Walk:
    calls, joined_before = columns.calls.tolist(), columns.joined_before.tolist()
    blocks, uses, answers = columns.blocks_before.tolist(), columns.uses, columns.answers
    long_sums, next_long = placeholders.long_sums.tolist(), placeholders.next_long
    at_call = persisted.at_call
    limit, keep, most = settings.context_limit, settings.keep_recent, settings.max_messages
    keep_head = settings.keep_head
    keep_tail = most - keep_head
    total_calls = len(calls)
    out = Walk([], [], [], [], [], [], [], [total_calls] * len(columns.joined),
               [total_calls] * len(columns.block_position))
    death, replaced = out.death, out.replaced
    summary: Summary | None = None
    start, snipped, extension = 0, False, -1
    head = marker = tail = head_frontier = 0
    frontier = 0
    previous: Layout | None = None

    def uses_at(position: int) -> bool:
        if summary is not None:
            if position == 0:
                return False
            position -= 1
        return uses[start + position]

    def answers_at(position: int) -> bool:
        if summary is not None:
            if position == 0:
                return False
            position -= 1
        index = start + position
        return index < len(answers) and answers[index]

    arrays = arithmetic.arrays
    versions = arithmetic.versions

    def pair(before: int, before_frontier: int, now: int, now_frontier: int) -> int | None:
        old = versions.message(before, versions.placeholdered(before, before_frontier))
        new = versions.message(now, versions.placeholdered(now, now_frontier))
        return None if old is new or old == new else shared_block_chars(old, new)

    call, retry, span = 0, 0, 32
    while call < total_calls:
        if snipped and call >= retry:
            state = (start, 0 if summary is None else 1, 0 if summary is None else summary.size, head, tail, marker,
                     head_frontier, frontier)
            run = steady_run(arrays, call, min(total_calls, call + span), state, settings, (L3, L1, L2), pair)
            if run is not None:
                length = len(run.count)
                _record_run(out, run, call, summary, blocks[start + head], frontier)
                call += length
                marker, tail, frontier = int(run.marker[-1]), int(run.tail[-1]), int(run.frontier[-1])
                head_frontier = run.head_frontier
                end = joined_before[calls[call - 1]]
                previous = Layout(SNIPPED, summary, start, head, marker, tail, end, head_frontier, frontier)
                previous.count, previous.size = int(run.count[-1]), int(run.size[-1])
                retry, span = call, 2 * span if length == span else max(32, 2 * length)
                continue
            retry, span = call + 8, 32  # an extraordinary call: a few call by call before trying again
        end = joined_before[calls[call]]
        has = 0 if summary is None else 1
        acted = L3 if at_call[call] >= start else 0
        cut = False
        if not snipped:
            count = has + end - start
            if count > most:
                if extension < 0:
                    extension = keep_head
                    if uses_at(keep_head - 1):
                        while answers_at(extension):
                            extension += 1
                head_end = extension if extension < count else count
                tail_start = count - keep_tail
                if tail_start < count and answers_at(tail_start) and uses_at(tail_start - 1):
                    tail_start -= 1
                if head_end < tail_start:
                    snipped = cut = True
                    head = head_end - has
                    tail = start + tail_start - has
                    marker = tail_start - head_end
                    death[start + head:tail] = [call] * (tail - start - head)
                    head_frontier = min(frontier, blocks[start + head])
        else:
            tail_start = end - keep_tail
            if tail_start >= tail:
                if tail_start - 1 >= tail and answers[tail_start] and uses[tail_start - 1]:
                    tail_start -= 1
                marker = 1 + tail_start - tail
                death[tail:tail_start] = [call] * (tail_start - tail)
                tail, cut = tail_start, True
        if cut:
            acted |= L1
        # L2: the results older than the newest KEEP_RECENT become placeholders, oldest first
        moved = blocks[end] - keep
        if moved < blocks[start]:
            moved = blocks[start]
        new_ranges = []
        if snipped:
            head_blocks = blocks[start + head]
            wanted = head_blocks + blocks[end] - blocks[tail] - keep
            if wanted > head_blocks:
                wanted = head_blocks
            if wanted > head_frontier:
                new_ranges.append((head_frontier, wanted))
                head_frontier = wanted
            low = frontier if frontier > blocks[tail] else blocks[tail]
            if moved > low:
                new_ranges.append((low, moved))
        elif moved > frontier:
            new_ranges.append((frontier, moved))
        for low, high in new_ranges:
            if long_sums[high] > long_sums[low]:
                acted |= L2
            replaced[low:high] = [call] * (high - low)
        frontier = moved
        layout = Layout(SNIPPED if snipped else PRE, summary, start, head, marker, tail, end, head_frontier, frontier)
        if snipped:
            layout.count = has + head + 1 + end - tail
            chars = (arithmetic.prefix_chars(layout, has + head) + marker_size(marker)
                     + arithmetic.run_chars(tail, end, frontier))
        else:
            layout.count = has + end - start
            chars = arithmetic.prefix_chars(layout, layout.count)
        layout.size = chars + 2 * layout.count if layout.count else 2
        written = None
        if layout.size > limit:  # L4: the whole history becomes one summary
            written = summaries.of(layout)
            acted |= L4
            if snipped:
                death[start:start + head] = [call] * head
                death[tail:end] = [call] * (end - tail)
            else:
                death[start:end] = [call] * (end - start)
            summary, start, snipped, extension = written, end, False, -1
            head = marker = tail = head_frontier = 0
            frontier = blocks[end]
            layout = Layout(SUMMARY, written, end, 0, 0, end, end, 0, frontier)
            layout.count, layout.size = 1, written.size + 2
        whole, shared = (True, 0) if previous is None else \
            _shared(arithmetic, previous, layout, new_ranges, columns, next_long)
        out.count.append(layout.count)
        out.size.append(layout.size)
        out.acted.append(acted)
        out.whole.append(whole)
        out.shared.append(shared)
        out.summary.append(written)
        out.made.append((layout.summary, layout.marker if layout.kind == SNIPPED else 0))
        previous = layout
        call += 1
    return out


def _record_run(out: Walk, run: Run, first: int, summary: Summary | None, head_blocks: int, frontier: int) -> None:
    """A steady run's calls into the walk: what each sends, and the messages and results it left out."""
    out.count += run.count.tolist()
    out.size += run.size.tolist()
    out.acted += run.acted.tolist()
    out.whole += [False] * len(run.count)
    out.shared += run.shared.tolist()
    out.summary += [None] * len(run.count)
    out.made += [(summary, marker) for marker in run.marker.tolist()]
    low, high = int(run.tail_before[0]), int(run.tail[-1])
    if high > low:  # each message leaves at the first call whose tail starts past it
        leaves = first + np.searchsorted(run.tail, np.arange(low, high), side="right")
        out.death[low:high] = leaves.tolist()
    low, high = max(frontier, head_blocks), int(run.frontier[-1])
    if high > low:
        replaced = first + np.searchsorted(run.frontier, np.arange(low, high), side="right")
        out.replaced[low:high] = replaced.tolist()


def _shared(arithmetic: Arithmetic, previous: Layout, now: Layout, new_ranges: list, columns: Columns,
            next_long: list[int]) -> tuple[bool, int]:
    """(whether `now` starts with all of `previous`, characters of its messages shared with it, block by
    block at the first difference): cache.shared_prefix_chars, from the two layouts."""
    count, blocks = _common(arithmetic, previous, now, new_ranges, columns, next_long)
    whole = count == previous.count
    chars = arithmetic.prefix_chars(now, count) + 2 * count
    if not whole and count < now.count:
        chars += blocks if blocks is not None else \
            shared_block_chars(arithmetic.item(previous, count), arithmetic.item(now, count))
    return whole, chars


def _common(arithmetic: Arithmetic, previous: Layout, now: Layout, new_ranges: list, columns: Columns,
            next_long: list[int]) -> tuple[int, int | None]:
    """(how many leading messages the two histories share, equal messages counting as shared as the
    loop's list comparison does; the characters of the leading blocks the first differing pair shares
    when known without building them, else None)."""
    limit = min(previous.count, now.count)
    if now.kind == SUMMARY:  # a string content: no block is shared
        if not limit:
            return 0, 0
        before = previous.summary.message if previous.summary is not None else arithmetic.item(previous, 0)
        return (1 if before == now.summary.message else 0), 0
    if previous.kind == SUMMARY:  # the summary that ended the last epoch begins this one
        return min(1, limit), None
    # the same epoch: the first message a placeholder rewrote, else the marker, else the tail
    head_first = tail_first = limit
    head_blocks = tail_blocks = None  # the first rewritten message's shared blocks: none when its first is
    sent_blocks = int(columns.blocks_before[previous.end])
    for low, high in new_ranges:
        found = next_long[low]
        if found < high and found < sent_blocks:
            position = int(columns.block_message[found])
            blocks = 0 if columns.block_position[found] == 0 else None
            if now.kind == PRE or position < now.start + now.head:
                at = now.has_summary + position - now.start
                if at < head_first:
                    head_first, head_blocks = at, blocks
            else:
                at = now.head_items + 1 + position - now.tail
                if at < tail_first:
                    tail_first, tail_blocks = at, blocks
    if now.kind == PRE:
        return head_first, head_blocks
    head_items = now.head_items
    if head_first < head_items or head_items >= limit:
        return (head_first, head_blocks) if head_first <= limit else (limit, None)
    keys = columns.first_keys
    if previous.kind == PRE:  # the first cut: the marker takes a message's place
        if keys[previous.start + head_items - previous.has_summary][0] != "string":
            return head_items, 0
        return _walk_equal(arithmetic, previous, now, head_items, limit), None
    if previous.marker != now.marker:
        return head_items, 0
    if previous.tail != now.tail:  # the same marker: the tails' first messages, rarely alike
        if head_items + 1 < limit and keys[previous.tail] != keys[now.tail]:
            return head_items + 1, 0
        return _walk_equal(arithmetic, previous, now, min(head_items + 1, limit), limit), None
    return tail_first, tail_blocks


def _walk_equal(arithmetic: Arithmetic, previous: Layout, now: Layout, position: int, limit: int) -> int:
    """The first position from `position` where the two histories' messages differ (`limit` at most)."""
    while position < limit:
        before, after = arithmetic.item(previous, position), arithmetic.item(now, position)
        if before is not after and before != after:
            return position
        position += 1
    return position
