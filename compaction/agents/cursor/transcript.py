"""Cursor's agent transcripts (~/.cursor/projects/<project>/agent-transcripts/<id>/<id>.jsonl), in
Anthropic form: one line per message, `{role, message: {content}}`, the content a text or Anthropic-style
blocks (text, thinking, tool_use {name, input}, tool_result {content}), and `{type: "turn_ended"}` lines
between the person's turns. The person's text is kept as Cursor sent it (<user_query>, <timestamp>,
<workspace> tags included).

What a transcript does not hold: the model, any usage, times, the system prompt and tools. A warning
says so, and every figure is estimated as for any log without usage (the lab's token model, the default
window and prices). One call per assistant line. Cursor writes its tool calls without ids: each gets
`cursor_<line>_<n>`, and a tool_result line answers the calls of the assistant lines before it in order.
Cursor documents no compaction rule of its own: there is no Cursor preset, and no compaction is read
from a transcript."""

from collections import Counter, deque
from typing import Any

from compaction.errors import ConversationError
from compaction.importers.checks import build_conversation
from compaction.importers.jsonl import JsonLines
from compaction.model.conversation import Conversation, LoadWarning
from compaction.words import plural, verb

FORMAT = "cursor"
ROLES = ("user", "assistant")


def is_message_line(value: dict) -> bool:
    message = value.get("message")
    return value.get("role") in (*ROLES, "system") and isinstance(message, dict) and "content" in message \
        and "type" not in value


def looks_like(objects: list[tuple[int, dict]]) -> bool:
    """The first line that is not a turn's end is a message line in Cursor's form."""
    first = next((value for _, value in objects if value.get("type") != "turn_ended"), None)
    return first is not None and is_message_line(first)


def load(lines: JsonLines) -> Conversation:
    messages: list[dict[str, Any]] = []
    counts: Counter[str] = Counter()
    waiting: deque[str] = deque()  # ids given to calls not answered yet, oldest first
    for number, value in lines.objects:
        if value.get("type") == "turn_ended":
            counts["turns"] += 1
            continue
        if not is_message_line(value):
            counts["lines_skipped"] += 1
            continue
        if value["role"] == "system":
            counts["system_lines"] += 1
            continue
        content = _content(value["message"]["content"], number, waiting, counts)
        if value["role"] == "assistant":
            counts["calls"] += 1
        messages.append({"role": value["role"], "content": content})
    if not messages:
        raise ConversationError(f"a Cursor transcript of {plural(len(lines.objects), 'line')} without a user or assistant "
                                "line", where=lines.label)
    warnings = [w for w in (lines.skipped_warning(),) if w]
    warnings.append(LoadWarning("Cursor's transcript records no model and no usage: each call's tokens are estimated "
                                "(the lab's token model), with the default window and prices", kind="no_usage"))
    if counts["ids_given"]:
        warnings.append(LoadWarning(f"{plural(counts['ids_given'], 'tool call')} {verb(counts['ids_given'], 'carries', 'carry')} "
                                    "no id in the transcript: each is "
                                    "named cursor_<line>_<n>, and the results that follow answer them in order",
                                    kind="ids_given"))
    metadata = {"calls": counts["calls"], "turns": counts["turns"], "system_lines": counts["system_lines"],
                "thinking_blocks": counts["thinking"], "tool_calls_without_id": counts["ids_given"],
                "compact_boundaries": [], "models": []}
    return build_conversation(messages, lines.label, FORMAT, warnings, metadata=metadata)


def _content(raw: Any, number: int, waiting: deque, counts: Counter) -> Any:
    if isinstance(raw, str):
        return raw
    if not isinstance(raw, list):
        raise ConversationError("'message.content' must be a text or a list of blocks", where=f"line {number}")
    blocks = []
    for position, block in enumerate(raw):
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text":
            blocks.append({"type": "text", "text": str(block.get("text", ""))})
        elif kind == "tool_use":
            call = str(block.get("id") or f"cursor_{number}_{position}")
            counts["ids_given"] += not block.get("id")
            waiting.append(call)
            blocks.append({"type": "tool_use", "id": call, "name": str(block.get("name") or ""),
                           "input": block.get("input") if isinstance(block.get("input"), dict) else {}})
        elif kind == "tool_result":
            answered = str(block.get("tool_use_id") or (waiting.popleft() if waiting else f"cursor_{number}_{position}"))
            blocks.append({"type": "tool_result", "tool_use_id": answered, "content": _result(block.get("content"))})
        elif kind in ("thinking", "redacted_thinking"):
            counts["thinking"] += 1
        else:
            counts[f"other:{kind}"] += 1
    return blocks or ""


def _result(content: Any) -> Any:
    if isinstance(content, str | list):
        return content
    return "" if content is None else str(content)
