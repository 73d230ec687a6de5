"""Dropping messages after a kept head, as Cline's and Roo Code's truncations do, and the record of what
went. The join is mended (model/mending.py): results whose calls went stay as text, a kept call whose
result went is answered "result missing", as Cline does."""

from compaction.model.events import SnippedRange
from compaction.model.history import History
from compaction.model.mending import mended_join
from compaction.model.messages import Message
from compaction.model.sizes import message_size


def drop_range(history: History, start: int, end: int, marker: Message | None = None) -> tuple[History, SnippedRange]:
    """messages[start:end] dropped, `marker` put in their place when given."""
    messages = history.messages
    gone = range(start, end)
    dropped = tuple(o for p in gone if (o := history.origins[p]) is not None)
    placed = [marker] if marker is not None else []
    event = SnippedRange(start=dropped[0] if dropped else None, end=dropped[-1] if dropped else None,
                         count=len(gone), size=sum(history.sizes[p] for p in gone), indices=dropped,
                         marker=str(marker["content"]) if marker is not None else "")
    after = messages[end:]
    after_sizes = history.sizes[end:]
    if after:
        before = placed[-1] if placed else messages[start - 1] if start > 0 else None
        joined = mended_join(before, after[0])
        if joined is not after[0]:
            after, after_sizes = [joined, *after[1:]], [message_size(joined), *after_sizes[1:]]
    kept = history.derive(messages[:start] + placed + after,
                          history.sizes[:start] + [message_size(m) for m in placed] + after_sizes,
                          history.origins[:start] + [None] * len(placed) + history.origins[end:])
    return kept, event


def with_notice(history: History, position: int, notice: str) -> History:
    """The message at `position` with `notice` added as a text block of its own (once)."""
    message = history.messages[position]
    content = message["content"]
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else list(content)
    if any(isinstance(b, dict) and b.get("text") == notice for b in blocks):
        return history
    changed = {**message, "content": [*blocks, {"type": "text", "text": notice}]}
    messages = list(history.messages)
    sizes = list(history.sizes)
    messages[position], sizes[position] = changed, message_size(changed)
    return history.derive(messages, sizes, list(history.origins))
