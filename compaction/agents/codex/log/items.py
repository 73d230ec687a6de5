"""One Codex response item (the Responses API's input/output item, as the rollout stores it) as
Anthropic blocks.

Model side (what a response produced): `message` of role assistant (its `output_text` parts),
`reasoning` (its summary, or its plain-text content, as a thinking block; the encrypted part is left
out: it is not text the context can be measured by), `function_call` / `custom_tool_call` /
`local_shell_call` (tool_use), `web_search_call` (server_tool_use: the search ran at OpenAI, inside the
response, and has no output item).
Input side (what the next request adds): `message` of role user (text, images), `function_call_output`
and `custom_tool_call_output` (tool_result). Developer and system messages are the system prompt.
"""

import json
from dataclasses import dataclass, field
from typing import Any

from compaction.errors import ConversationError
from compaction.importers.source import MAX_NESTING_DEPTH, kind_of, too_deep

MODEL_ITEMS = frozenset({"reasoning", "function_call", "custom_tool_call", "local_shell_call", "web_search_call"})
OUTPUT_ITEMS = frozenset({"function_call_output", "custom_tool_call_output"})
NOT_SENT = frozenset({"ghost_snapshot"})  # Codex's own undo snapshots, removed before every request
ROLES = ("user", "assistant", "developer", "system")

# Openings of the user messages Codex writes itself (its initial context, AGENTS.md, notes), not the person
INJECTED = (("<environment_context>", "environment_context"), ("<user_instructions>", "user_instructions"),
            ("# AGENTS.md instructions", "agents_md"), ("<INSTRUCTIONS>", "agents_md"),
            ("<user_shell_command>", "user_shell_command"), ("<turn_aborted>", "turn_aborted"),
            ("<skill>", "skill"), ("<session_context>", "session_context"))


@dataclass
class Converted:
    """What an item adds: blocks of the response or of the next user message, or system text."""

    side: str  # "model" | "input" | "system" | "none"
    blocks: list[dict] = field(default_factory=list)
    call_id: str | None = None  # the call it makes (model side) or answers (a tool output)
    injected: str | None = None  # for a user message Codex wrote itself: which kind
    system: str | None = None
    warnings: list[str] = field(default_factory=list)


def item_type(payload: dict) -> str:
    kind = payload.get("type")
    if kind is None and "role" in payload:
        return "message"  # the Responses API allows a message without its type
    return kind if isinstance(kind, str) else "(no type)"


def convert(payload: dict, where: str, line: int = 0) -> Converted | None:
    """The item's blocks; None for an item of a type this reader does not know. `line` names a web
    search that has no id of its own."""
    kind = item_type(payload)
    if kind == "message":
        return _message(payload, where)
    if kind == "reasoning":
        text = reasoning_text(payload)
        return Converted("model", [{"type": "thinking", "thinking": text}] if text else [])
    if kind in ("function_call", "custom_tool_call", "local_shell_call"):
        return _call(payload, kind, where)
    if kind == "web_search_call":
        action = payload.get("action") if isinstance(payload.get("action"), dict) else {}
        block_id = payload.get("id") if isinstance(payload.get("id"), str) else f"web_search_line_{line}"
        return Converted("model", [{"type": "server_tool_use", "id": block_id, "name": "web_search", "input": action}])
    if kind in OUTPUT_ITEMS:
        call_id = _string(payload, "call_id", kind, where)
        content = output_content(payload.get("output"), f"{where}: output")
        return Converted("input", [{"type": "tool_result", "tool_use_id": call_id, "content": content}], call_id)
    if kind in NOT_SENT:
        return Converted("none")
    return None


def encrypted_tokens(encrypted) -> int:
    """Codex's estimate of an encrypted item (history.rs: estimate_reasoning_length, then bytes / 4 rounded
    up): its base64 length x 3 / 4 - 650 bytes."""
    if not isinstance(encrypted, str):
        return 0
    return -(-max(len(encrypted) * 3 // 4 - 650, 0) // 4)


def reasoning_text(payload: dict) -> str:
    """The reasoning's summary texts (or, where the model gave them, its plain reasoning texts)."""
    texts = []
    for key in ("summary", "content"):
        parts = payload.get(key)
        for part in parts if isinstance(parts, list) else ():
            if isinstance(part, dict) and isinstance(part.get("text"), str) and part["text"]:
                texts.append(part["text"])
        if texts:
            break
    return "\n\n".join(texts)


def _message(payload: dict, where: str) -> Converted:
    role = payload.get("role")
    if role not in ROLES:
        raise ConversationError(f"a message needs 'role' user, assistant, developer or system, got {role!r}",
                                where=where)
    blocks, warnings = content_blocks(payload.get("content"), f"{where}: content")
    if role in ("developer", "system"):
        text = "\n".join(b["text"] for b in blocks if b["type"] == "text")
        return Converted("system", system=text, warnings=warnings)
    if role == "assistant":
        return Converted("model", blocks, warnings=warnings)
    first = next((b["text"] for b in blocks if b["type"] == "text"), "").lstrip()
    injected = next((name for opening, name in INJECTED if first.startswith(opening)), None)
    return Converted("input", blocks, injected=injected, warnings=warnings)


def content_blocks(content: Any, where: str) -> tuple[list[dict], list[str]]:
    """A message's content parts (input_text, output_text, input_image, refusal) as blocks."""
    if isinstance(content, str):
        return ([{"type": "text", "text": content}] if content else []), []
    if not isinstance(content, list):
        raise ConversationError(f"'content' must be a list of parts, got {kind_of(content)}", where=where)
    blocks, warnings = [], []
    for position, part in enumerate(content):
        kind = part.get("type") if isinstance(part, dict) else None
        if kind in ("input_text", "output_text", "text") and isinstance(part.get("text"), str):
            blocks.append({"type": "text", "text": part["text"]})
        elif kind == "refusal" and isinstance(part.get("refusal"), str):
            blocks.append({"type": "text", "text": part["refusal"]})
        elif kind == "input_image" and isinstance(part.get("image_url"), str):
            blocks.append({"type": "image", "source": image_source(part["image_url"])})
        else:
            warnings.append(f"content[{position}]: a part of type {kind!r} left out")
    return blocks, warnings


def output_content(output: Any, where: str) -> Any:
    """A tool output: a string, a list of content items (text, images), or {content, success}."""
    if isinstance(output, dict):
        output = output.get("content", output.get("output", json.dumps(output, ensure_ascii=False)))
    if output is None:
        return ""
    if isinstance(output, str):
        return output
    if isinstance(output, list):
        return content_blocks(output, where)[0]
    return json.dumps(output, ensure_ascii=False)


def image_source(url: str) -> dict:
    if url.startswith("data:") and ";base64," in url:
        media_type, data = url[5:].split(";base64,", 1)
        return {"type": "base64", "media_type": media_type, "data": data}
    return {"type": "url", "url": url}


def _call(payload: dict, kind: str, where: str) -> Converted:
    warnings = []
    if kind == "local_shell_call":
        call_id = payload.get("call_id") or payload.get("id")
        if not isinstance(call_id, str):
            raise ConversationError("local_shell_call needs 'call_id' as a string", where=where)
        name, tool_input = "local_shell", payload.get("action") if isinstance(payload.get("action"), dict) else {}
    else:
        call_id, name = _string(payload, "call_id", kind, where), _string(payload, "name", kind, where)
        if kind == "custom_tool_call":  # free-form input (apply_patch's grammar): the API wants an object
            raw = payload.get("input")
            tool_input = {"input": raw if isinstance(raw, str) else json.dumps(raw, ensure_ascii=False)}
        else:
            tool_input, problem = parse_arguments(payload.get("arguments", "{}"))
            if problem:
                warnings.append(f"tool call {call_id!r}: 'arguments' {problem}; kept as a string")
    return Converted("model", [{"type": "tool_use", "id": call_id, "name": name, "input": tool_input}], call_id,
                     warnings=warnings)


def parse_arguments(arguments: Any) -> tuple[Any, str | None]:
    """A call's JSON arguments parsed, or the raw string and why it was not."""
    if not isinstance(arguments, str):
        return arguments, None
    try:
        value = json.loads(arguments)
    except (ValueError, RecursionError):
        return arguments, "is not valid JSON"
    if too_deep(value, MAX_NESTING_DEPTH - 5):
        return arguments, f"nest deeper than the maximum of {MAX_NESTING_DEPTH} levels"
    return value, None


def _string(payload: dict, key: str, kind: str, where: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str):
        found = f"got {kind_of(value)}" if key in payload else "it is missing"
        raise ConversationError(f"{kind} needs '{key}' as a string, {found}", where=where)
    return value
