"""L1 snip_compact: above max_messages, keep the first messages (the task) and the newest ones and
replace the middle with one marker, never separating a tool_use from its tool_result. A message the
settings keep verbatim (model/keep.py) is never snipped: it follows the marker, in its order."""

from collections.abc import Callable

from compaction.model.events import LayerResult, SnippedRange
from compaction.model.history import History, prepare
from compaction.model.keep import kept_positions
from compaction.model.messages import Message, has_tool_result, has_tool_use
from compaction.model.settings import DEFAULTS, Settings
from compaction.model.sizes import message_size


def snip_marker(count: int) -> Message:
    return {"role": "user", "content": f"[snipped {count} messages]"}


def marker_size(count: int) -> int:
    """message_size(snip_marker(count)), without building the marker's repr: only the count's digits vary."""
    return _MARKER_BASE + len(str(count))


_MARKER_BASE = message_size(snip_marker(0)) - 1


def cut_points(messages: list[Message], keep_head: int, keep_tail: int) -> tuple[int, int]:
    """(head_end, tail_start): keep messages[:head_end] and messages[tail_start:]. See cut_between."""
    return cut_between(len(messages), keep_head, keep_tail, lambda p: has_tool_use(messages[p]),
                       lambda p: has_tool_result(messages[p]))


def cut_between(total: int, keep_head: int, keep_tail: int, uses_tool: Callable[[int], bool],
                answers_tool: Callable[[int], bool]) -> tuple[int, int]:
    """(head_end, tail_start) in a history of `total` messages, `uses_tool(p)` / `answers_tool(p)` saying
    whether the message at p holds a tool_use / a tool_result (the replay asks its running history).

    The tutorial's pair protection, generalised: a head ending on a tool_use takes in the message
    that answers it (whatever else that message holds, parallel results included); a tail starting
    on a message with tool results takes in the tool_use message before it.
    """
    head_end = min(keep_head, total)
    tail_start = max(total - keep_tail, 0)
    if head_end > 0 and uses_tool(head_end - 1):
        while head_end < total and answers_tool(head_end):
            head_end += 1
    if 0 < tail_start < total and answers_tool(tail_start) and uses_tool(tail_start - 1):
        tail_start -= 1
    return head_end, tail_start


def snip_range(sizes: list[int], origins: list[int | None], head_end: int, tail_start: int,
               kept: tuple[int, ...] = ()) -> tuple[Message, SnippedRange]:
    """The marker that replaces messages[head_end:tail_start] but the `kept` positions among them, and the
    record of what it dropped."""
    skipped = set(kept)
    gone = [p for p in range(head_end, tail_start) if p not in skipped] if kept else range(head_end, tail_start)
    count = len(gone)
    marker = snip_marker(count)
    dropped = [o for p in gone if (o := origins[p]) is not None]
    event = SnippedRange(
        start=dropped[0] if dropped else None,
        end=dropped[-1] if dropped else None,
        count=count,
        size=sum(sizes[p] for p in gone),
        indices=tuple(dropped),
        marker=marker["content"],
    )
    return marker, event


def snip_compact(conversation, settings: Settings = DEFAULTS) -> LayerResult:
    history: History = prepare(conversation)
    if len(history.messages) <= settings.max_messages:
        return LayerResult(history)
    head_end, tail_start = cut_points(history.messages, settings.keep_head,
                                      settings.max_messages - settings.keep_head)
    if head_end >= tail_start:
        return LayerResult(history)
    kept = tuple(kept_positions(history, settings, head_end, tail_start))
    if len(kept) == tail_start - head_end:
        return LayerResult(history)  # the whole middle is kept verbatim
    marker, event = snip_range(history.sizes, history.origins, head_end, tail_start, kept)
    messages = history.messages[:head_end] + [marker] + [history.messages[p] for p in kept] + history.messages[tail_start:]
    sizes = history.sizes[:head_end] + [marker_size(event.count)] + [history.sizes[p] for p in kept] \
        + history.sizes[tail_start:]
    origins = history.origins[:head_end] + [None] + [history.origins[p] for p in kept] + history.origins[tail_start:]
    return LayerResult(history.derive(messages, sizes, origins), [event])
