"""One Goose message's content (crates/goose/src/conversation/message.rs MessageContent, serialised with
its `type`: text, toolRequest, toolResponse, thinking, redactedThinking, image, ...) as the content of an
Anthropic message: `text` a text block, `toolRequest` a tool_use (its toolCall's value: name and
arguments), `toolResponse` a tool_result (its toolResult's text items); an image a text naming it; the
model's thinking is not sent back as text and is left out; the notices Goose shows the person
(systemNotification, actionRequired, ...) are not sent to the model and are counted only."""

from dataclasses import dataclass, field
from typing import Any

from compaction.importers.fields import object_at

SKIPPED = ("thinking", "redactedThinking", "reasoning")


@dataclass
class Content:
    blocks: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # the types left out, one entry per part


def read_content(parts: Any) -> Content:
    out = Content()
    for part in parts if isinstance(parts, list) else []:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind == "text":
            if part.get("text"):
                out.blocks.append({"type": "text", "text": str(part["text"])})
        elif kind == "toolRequest":
            out.blocks.append(_request(part))
        elif kind == "toolResponse":
            out.blocks.append(_response(part))
        elif kind == "image":
            out.blocks.append({"type": "text", "text": f"[image: {part.get('mimeType') or 'image'}]"})
        else:
            out.skipped.append(str(kind))
    return out


def _request(part: dict) -> dict[str, Any]:
    value = object_at(object_at(part, "toolCall"), "value")
    arguments = value.get("arguments")
    return {"type": "tool_use", "id": str(part.get("id") or ""), "name": str(value.get("name") or ""),
            "input": arguments if isinstance(arguments, dict) else {} if arguments is None else {"arguments": arguments}}


def _response(part: dict) -> dict[str, Any]:
    result = object_at(part, "toolResult")
    value = result.get("value")
    items = value.get("content") if isinstance(value, dict) else value  # newer: {content, isError}
    texts = [str(item.get("text", "")) for item in items or [] if isinstance(item, dict) and item.get("type") == "text"]
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": str(part.get("id") or ""), "content": "\n".join(texts)}
    if result.get("status") == "error" or (isinstance(value, dict) and value.get("isError")):
        block["is_error"] = True
        if not texts and result.get("error"):
            block["content"] = str(result["error"])
    return block
