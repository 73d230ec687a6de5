"""OpenCode's parts as Anthropic blocks, as OpenCode turns them into model messages
(packages/opencode/src/session/message-v2.ts, toModelMessages):

- `text` is text (a part marked `ignored` is not sent); `reasoning` is thinking;
- `tool` is a tool_use with its `callID`, answered by a tool_result: the output when `completed`, the
  error when `error`, and "[Tool execution was interrupted]" (an error) when still pending or running;
- `file` is sent as the file (a note of its name here: the log keeps a link, not the contents);
- `compaction` is the person's "What did we do so far?"; `subtask` and `agent` are notes;
- `step-start`, `step-finish`, `snapshot`, `patch`, `retry` are not sent.
"""

import json
from typing import Any

from compaction.importers.fields import object_at

INTERRUPTED = "[Tool execution was interrupted]"  # message-v2.ts: a tool call still pending or running
COMPACTION_QUESTION = "What did we do so far?"  # message-v2.ts: the compaction part as the person's text
NOT_SENT = frozenset({"step-start", "step-finish", "snapshot", "patch", "retry"})


def text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return "" if value is None else json.dumps(value, ensure_ascii=False)


def content_block(part: dict) -> dict | None:
    """The block of a part that is neither a tool call nor a step marker; None when nothing is sent."""
    kind = part.get("type")
    if kind == "text":
        return None if part.get("ignored") or not text(part.get("text")) else {"type": "text", "text": text(part["text"])}
    if kind == "reasoning":
        return {"type": "thinking", "thinking": text(part.get("text"))} if text(part.get("text")) else None
    if kind == "file":
        name = part.get("filename") or part.get("url") or "a file"
        return {"type": "text", "text": f"[file {text(name)} ({text(part.get('mime') or 'unknown type')})]"}
    if kind == "subtask":
        return {"type": "text", "text": f"[subtask for {text(part.get('agent'))}: {text(part.get('prompt'))}]"}
    if kind == "agent":
        return {"type": "text", "text": f"[agent {text(part.get('name'))}]"}
    return None


def tool_use(part: dict, call_id: str) -> dict:
    state = object_at(part, "state")
    given = state.get("input")
    return {"type": "tool_use", "id": call_id, "name": text(part.get("tool")) or "tool",
            "input": given if isinstance(given, dict) else {} if given is None else {"input": given}}


def tool_result(part: dict, call_id: str) -> tuple[dict, str]:
    """The result block, and the tool's status (completed, error, pending, running)."""
    state = object_at(part, "state")
    status = text(state.get("status")) or "pending"
    if status == "completed":
        return {"type": "tool_result", "tool_use_id": call_id, "content": text(state.get("output"))}, status
    if status == "error":
        return {"type": "tool_result", "tool_use_id": call_id, "content": text(state.get("error")),
                "is_error": True}, status
    return {"type": "tool_result", "tool_use_id": call_id, "content": INTERRUPTED, "is_error": True}, status


def pruned(part: dict) -> bool:
    """A tool output OpenCode's prune cleared: `state.time.compacted` set (the file keeps the output)."""
    state = object_at(part, "state")
    times = object_at(state, "time")
    return bool(times.get("compacted"))
