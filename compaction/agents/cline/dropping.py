"""Dropping messages after a kept head, as Cline's and Roo Code's truncations do, and the record of what
went. The first kept turn may answer a call that went: its results stay, as text; a call of the kept head
whose result went is answered "result missing" (Cline's ensureToolResultsFollowToolUse): the pairs stay valid."""

from compaction.model.events import SnippedRange
from compaction.model.history import History
from compaction.model.messages import Message, has_tool_result
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
    if after and has_tool_result(after[0]):
        after = [as_text(after[0]), *after[1:]]
    calls = tool_use_ids(messages[start - 1]) if start > 0 and not placed else []
    if after and calls and after[0].get("role") == "user":
        after = [answered(after[0], calls), *after[1:]]
    after_sizes = [message_size(after[0]), *history.sizes[end + 1:]] if after else []
    kept = history.derive(messages[:start] + placed + after,
                          history.sizes[:start] + [message_size(m) for m in placed] + after_sizes,
                          history.origins[:start] + [None] * len(placed) + history.origins[end:])
    return kept, event


MISSING = "result missing"  # Cline's ContextManager.ensureToolResultsFollowToolUse, for a call whose result went


def tool_use_ids(message: Message) -> list[str]:
    content = message.get("content")
    return [b["id"] for b in content if isinstance(b, dict) and b.get("type") == "tool_use"
            and isinstance(b.get("id"), str)] if isinstance(content, list) else []


def answered(message: Message, calls: list[str]) -> Message:
    """The kept head's calls answered at the top of the first kept turn, as Cline does."""
    content = message["content"]
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else list(content)
    results = [{"type": "tool_result", "tool_use_id": call, "content": MISSING} for call in calls]
    return {**message, "content": [*results, *blocks]}


def as_text(message: Message) -> Message:
    """A turn whose tool results answer dropped calls, with each result as a text block of its own: what the
    model then reads (the call is gone, its result stays)."""
    content = [{"type": "text", "text": result_text(block)} if isinstance(block, dict) and block.get("type") ==
               "tool_result" else block for block in message["content"]]
    return {**message, "content": content}


def result_text(block: dict) -> str:
    inner = block.get("content")
    if isinstance(inner, list):
        inner = "\n".join(b.get("text", "") for b in inner if isinstance(b, dict))
    return str(inner or "")


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
