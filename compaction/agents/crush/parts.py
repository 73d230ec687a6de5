"""One Crush message's `parts` (internal/message/content.go: a JSON list of {"type", "data"}) as the
content of an Anthropic message: `text` a text block, `tool_call` a tool_use (its `input` is the JSON text
of the arguments), `tool_result` a tool_result, `image_url` and `binary` a text naming the image, a
`shell_command` (the person's `!` command) a text with its output. `reasoning` (the model's thinking) is
not sent back as text and is left out; `finish` is the call's end, kept beside the content."""

import json
from dataclasses import dataclass, field
from typing import Any

from compaction.errors import ConversationError


@dataclass
class Parts:
    blocks: list[dict[str, Any]] = field(default_factory=list)
    finish: dict[str, Any] | None = None  # {"reason", "time", "message", "details"}
    reasoning: int = 0  # parts of thinking left out
    unknown: list[str] = field(default_factory=list)  # part types this reader does not know


def read_parts(raw: Any, where: str) -> Parts:
    try:
        parts = json.loads(raw) if isinstance(raw, str) else raw
    except ValueError as exc:
        raise ConversationError(f"'parts' is not valid JSON: {exc}", where=where) from None
    if not isinstance(parts, list):
        raise ConversationError("'parts' must be a JSON list", where=where)
    out = Parts()
    for number, part in enumerate(parts):
        if not isinstance(part, dict) or not isinstance(part.get("data"), dict):
            raise ConversationError(f"parts[{number}] must be an object with 'type' and 'data'", where=where)
        _read(part.get("type"), part["data"], out)
    return out


def _read(kind: Any, data: dict, out: Parts) -> None:
    if kind == "text":
        if data.get("text"):
            out.blocks.append({"type": "text", "text": str(data["text"])})
    elif kind == "tool_call":
        out.blocks.append({"type": "tool_use", "id": str(data.get("id") or ""), "name": str(data.get("name") or ""),
                           "input": _arguments(data.get("input"))})
    elif kind == "tool_result":
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": str(data.get("tool_call_id") or ""),
                 "content": str(data.get("content") or "")}
        if data.get("is_error"):
            block["is_error"] = True
        out.blocks.append(block)
    elif kind == "reasoning":
        out.reasoning += 1
    elif kind == "finish":
        out.finish = data
    elif kind == "image_url":
        out.blocks.append({"type": "text", "text": f"[image: {data.get('url', '')}]"})
    elif kind == "binary":
        out.blocks.append({"type": "text", "text": f"[{data.get('MIMEType') or data.get('mime_type') or 'file'}: "
                                                   f"{data.get('Path') or data.get('path') or ''}]"})
    elif kind == "shell_command":
        out.blocks.append({"type": "text", "text": f"! {data.get('command', '')}\n{data.get('output', '')}"})
    else:
        out.unknown.append(str(kind))


def _arguments(raw: Any) -> dict:
    """The call's arguments: Crush keeps them as JSON text; text that is no JSON object stays whole."""
    if isinstance(raw, dict):
        return raw
    if isinstance(raw, str) and raw.strip():
        try:
            value = json.loads(raw)
        except ValueError:
            return {"input": raw}
        return value if isinstance(value, dict) else {"input": value}
    return {}
