"""Gemini API content (a `PartListUnion`: a string, a part, or a list of them) as Anthropic blocks.

A part is `{text}` (with `thought: true` for the model's thinking), `{functionCall: {id, name, args}}`,
`{functionResponse: {id, name, response}}` or `{inlineData: {mimeType, data}}`; `thoughtSignature`
and other fields that never change the text are left out.
"""

import json
from typing import Any


def parts_of(content: Any) -> list[Any]:
    """The parts of a PartListUnion, strings made text parts (gemini-cli sessionUtils: ensurePartArray)."""
    if isinstance(content, list):
        return [{"text": part} if isinstance(part, str) else part for part in content]
    if isinstance(content, str):
        return [{"text": content}] if content else []
    return [content] if isinstance(content, dict) else []


def text_of(content: Any) -> str:
    """The plain text of a content value (partListUnionToString, for text parts)."""
    return "".join(part["text"] for part in parts_of(content)
                   if isinstance(part, dict) and isinstance(part.get("text"), str) and not part.get("thought"))


def text_blocks(parts: list[Any]) -> list[dict]:
    """Text and image parts as blocks, thoughts as thinking blocks; calls and responses are read apart."""
    blocks = []
    for part in parts:
        if not isinstance(part, dict):
            continue
        if isinstance(part.get("text"), str):
            if part.get("thought"):
                blocks.append({"type": "thinking", "thinking": part["text"]})
            elif part["text"]:
                blocks.append({"type": "text", "text": part["text"]})
        elif isinstance(part.get("inlineData"), dict):
            data = part["inlineData"]
            blocks.append({"type": "image", "source": {"type": "base64", "media_type": data.get("mimeType", ""),
                                                       "data": data.get("data", "")}})
    return blocks


def function_calls(parts: list[Any]) -> list[dict]:
    return [part["functionCall"] for part in parts
            if isinstance(part, dict) and isinstance(part.get("functionCall"), dict)]


def function_responses(parts: list[Any]) -> list[dict]:
    return [part["functionResponse"] for part in parts
            if isinstance(part, dict) and isinstance(part.get("functionResponse"), dict)]


def response_content(response: dict) -> tuple[str, bool]:
    """What a functionResponse tells the model (its `output`, else `error`, else the whole response),
    and whether it is an error."""
    body = response.get("response")
    if isinstance(body, dict):
        if "error" in body and "output" not in body:
            return _as_text(body["error"]), True
        if "output" in body:
            return _as_text(body["output"]), False
        if "content" in body:
            return _as_text(body["content"]), False
    return _as_text(body), False


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return "" if value is None else json.dumps(value, ensure_ascii=False)


def thought_blocks(thoughts: Any) -> list[dict]:
    """A recording's `thoughts` ({subject, description}) as gemini-cli rebuilds them: `**subject** description`."""
    blocks = []
    for thought in thoughts if isinstance(thoughts, list) else ():
        if not isinstance(thought, dict):
            continue
        subject, description = thought.get("subject"), thought.get("description")
        description = description if isinstance(description, str) else ""
        text = f"**{subject}** {description}" if isinstance(subject, str) and subject else description
        if text:
            blocks.append({"type": "thinking", "thinking": text})
    return blocks
