"""Writing Anthropic-form messages as OpenAI chat completions messages (the inverse of the importer).

tool_use blocks become `tool_calls` with JSON `arguments`; each tool_result becomes a `role: "tool"`
message; the system prompt becomes a leading system message.
"""

import json
from typing import Any

from compaction.model.messages import blocks, content_text


def to_openai(messages: list[dict], system: Any = None) -> list[dict]:
    out: list[dict] = []
    if system:
        out.append({"role": "system", "content": content_text(system)})
    for message in messages:
        content = message["content"]
        if message["role"] == "assistant":
            out.append(_assistant(message))
            continue
        if isinstance(content, str):
            out.append({"role": "user", "content": content})
            continue
        for block in blocks(message):
            if block.get("type") == "tool_result":
                out.append({"role": "tool", "tool_call_id": block["tool_use_id"],
                            "content": content_text(block.get("content"))})
        text = [b for b in blocks(message) if b.get("type") == "text"]
        if text:
            out.append({"role": "user", "content": content_text(text)})
    return out


def _assistant(message: dict) -> dict:
    content = message["content"]
    if isinstance(content, str):
        return {"role": "assistant", "content": content}
    text = content_text([b for b in blocks(message) if b.get("type") == "text"])
    converted: dict[str, Any] = {"role": "assistant", "content": text or None}
    calls = [{"id": b["id"], "type": "function",
              "function": {"name": b["name"], "arguments": b["input"] if isinstance(b["input"], str)
                           else json.dumps(b["input"], ensure_ascii=False)}}
             for b in blocks(message) if b.get("type") == "tool_use"]
    if calls:
        converted["tool_calls"] = calls
    return converted
