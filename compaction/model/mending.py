"""Mending the tool pairs where messages were dropped from the middle of a history (an agent that keeps the
head of its history and drops what follows it, as its log records): a tool_result whose call went stays as
text, and a call of the message before the gap whose result went is answered with a stand-in result first
(the words an agent of that kind writes, compaction/agents/), so the history is one the Messages API
accepts. A join whose pairs hold is left as it is."""

from compaction.model.messages import Message

MISSING = "result missing"  # the stand-in result of a call whose own result was dropped


def mended_join(before: Message | None, after: Message) -> Message:
    """`after` as it may follow `before` once the messages between them are gone (the same object when
    nothing needs mending)."""
    calls = _ids(before, "assistant", "tool_use", "id")
    content = after.get("content")
    if after.get("role") != "user":
        return after
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else list(content or [])
    answered = _ids(after, "user", "tool_result", "tool_use_id")
    if answered <= calls and not calls - answered:
        return after
    mended = [{"type": "tool_result", "tool_use_id": call, "content": MISSING}
              for call in _ordered(before) if call not in answered]
    for block in blocks:
        orphan = isinstance(block, dict) and block.get("type") == "tool_result" and block.get("tool_use_id") not in calls
        mended.append({"type": "text", "text": result_text(block)} if orphan else block)
    return {**after, "content": mended}


def result_text(block: dict) -> str:
    """What a tool_result said, as text."""
    inner = block.get("content")
    if isinstance(inner, list):
        inner = "\n".join(str(b.get("text", "")) for b in inner if isinstance(b, dict))
    return str(inner or "")


def _ids(message: Message | None, role: str, kind: str, key: str) -> set:
    content = message.get("content") if isinstance(message, dict) and message.get("role") == role else None
    return {b.get(key) for b in content if isinstance(b, dict) and b.get("type") == kind} if isinstance(
        content, list) else set()


def _ordered(before: Message | None) -> list:
    content = before.get("content") if isinstance(before, dict) and before.get("role") == "assistant" else None
    return [b.get("id") for b in content if isinstance(b, dict) and b.get("type") == "tool_use"] if isinstance(
        content, list) else []
