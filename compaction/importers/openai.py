"""OpenAI chat completions input: a list of messages, or a request body with `messages` (and `tools`).

Mapped to Anthropic form: system/developer messages become the system prompt; assistant `tool_calls`
become tool_use blocks (`arguments` parsed; invalid JSON kept as the raw string, with a warning);
consecutive `role: "tool"` replies become one user message of tool_result blocks.
"""

import json
from typing import Any

from compaction.errors import ConversationError
from compaction.importers.checks import build_conversation, check_message, only_tool_results
from compaction.importers.source import MAX_NESTING_DEPTH, depth_error, kind_of, too_deep
from compaction.importers.unique_ids import make_tool_ids_unique
from compaction.model.conversation import Conversation, LoadWarning
from compaction.model.messages import has_tool_use

FORMAT = "openai"
ROLES = ("system", "developer", "user", "assistant", "tool")


# Roles and keys only OpenAI chat messages have.
_OPENAI_ROLES = ("system", "developer", "tool", "function")  # a tuple: roles may be unhashable junk
_OPENAI_KEYS = ("tool_calls", "tool_call_id", "function_call")
_ANTHROPIC_BLOCKS = ("tool_use", "tool_result", "thinking", "image", "document")


def looks_like(value: Any) -> bool:
    """An OpenAI chat: function tools, or an OpenAI role or key before any Anthropic block. A plain
    chat shows neither, and is read as Anthropic."""
    if isinstance(value, dict):
        tools = value.get("tools")
        if isinstance(tools, list) and any(
                isinstance(t, dict) and ("function" in t or t.get("type") == "function") for t in tools):
            return True
        value = value.get("messages")
    if not isinstance(value, list):
        return False
    for message in value:
        if _is_openai_message(message):
            return True
        if _has_anthropic_blocks(message):
            return False
    return False


def _has_anthropic_blocks(message: Any) -> bool:
    content = message.get("content") if isinstance(message, dict) else None
    return isinstance(content, list) and any(
        isinstance(block, dict) and block.get("type") in _ANTHROPIC_BLOCKS for block in content)


def _is_openai_message(message: Any) -> bool:
    if not isinstance(message, dict):
        return False
    if message.get("role") in _OPENAI_ROLES or any(key in message for key in _OPENAI_KEYS):
        return True
    content = message.get("content")
    return isinstance(content, list) and any(
        isinstance(part, dict) and part.get("type") == "image_url" for part in content)


def from_json(value: Any, label: str) -> Conversation:
    tools: list[dict] = []
    if isinstance(value, dict):
        if not isinstance(value.get("messages"), list):
            raise ConversationError("expected a list of messages or an object with a 'messages' list",
                                    where=label)
        raw_tools = value.get("tools") or []
        if not isinstance(raw_tools, list):
            raise ConversationError(f"'tools' must be a list, got {kind_of(raw_tools)}", where=f"{label}: tools")
        tools = [_tool(tool, f"{label}: tools[{i}]") for i, tool in enumerate(raw_tools)]
        value = value["messages"]
    if not isinstance(value, list):
        raise ConversationError(f"expected a list of messages, got {kind_of(value)}", where=label)
    converter = Converter(label)
    for index, message in enumerate(value):
        converter.add(message, index)
    system = "\n\n".join(converter.system) if converter.system else None
    return converter.conversation(FORMAT, system, tools)


class Converter:
    """Builds the Anthropic messages one OpenAI message at a time."""

    def __init__(self, label: str, list_name: str = "messages"):
        self.label = label
        self.list_name = list_name  # how error messages name the source list
        self.messages: list[dict] = []
        self.system: list[str] = []
        self.warnings: list[LoadWarning] = []
        self.usage: dict[int, dict] = {}  # message index -> what the model call recorded, where known

    def conversation(self, format: str, system: Any, tools: list[dict], metadata: dict | None = None) -> Conversation:
        """The converted messages, tool-call ids made unique, after the checks across messages."""
        renamed = make_tool_ids_unique(self.messages)
        warnings = self.warnings + ([renamed] if renamed else [])
        usage = [self.usage.get(index) for index in range(len(self.messages))] if self.usage else []
        return build_conversation(self.messages, self.label, format, warnings, system=system, tools=tools,
                                  metadata=metadata, usage=usage)

    def add(self, message: Any, index: int) -> None:
        where = f"{self.label}: {self.list_name}[{index}]"
        if not isinstance(message, dict):
            raise ConversationError(f"a message must be an object, got {kind_of(message)}", where=where)
        role = message.get("role")
        if role not in ROLES:
            raise ConversationError(f"role must be one of {', '.join(ROLES)}; got {role!r}", where=where)
        if role in ("system", "developer"):
            if self.messages:
                self.warnings.append(LoadWarning(
                    f"{role} message (source index {index}) moved to the system prompt", index=len(self.messages)))
            self.system.append(_text(message.get("content"), where))
        elif role == "tool":
            self._tool_reply(message, where)
        else:
            converted = {"role": role, "content": _content(message.get("content"), where)}
            if role == "assistant":
                converted["content"] = self._with_tool_calls(converted["content"], message, where)
            self._append(converted, where)

    def add_or_merge(self, message: dict, index: int) -> None:
        """Add a message; a plain-text one of the same role as the last is merged into it instead (the
        Messages API merges consecutive turns of one role), unless that would put text after a call."""
        last = self.messages[-1] if self.messages else None
        role, content = message.get("role"), message.get("content")
        if last is None or last["role"] != role or not isinstance(content, str) or role not in ("user", "assistant") \
                or (role == "assistant" and has_tool_use(last)):
            self.add(message, index)
            return
        blocks = last["content"] if isinstance(last["content"], list) else [{"type": "text", "text": last["content"]}]
        last["content"] = [*blocks, {"type": "text", "text": content}]

    def _append(self, message: dict, where: str) -> None:
        for text in check_message(message, where):
            self.warnings.append(LoadWarning(text, index=len(self.messages)))
        self.messages.append(message)

    def _tool_reply(self, message: dict, where: str) -> None:
        call_id = message.get("tool_call_id")
        if not isinstance(call_id, str):
            raise ConversationError("a tool message needs 'tool_call_id' as a string", where=where)
        result = {"type": "tool_result", "tool_use_id": call_id, "content": _content(message.get("content"), where)}
        previous = self.messages[-1] if self.messages else None
        if previous and previous["role"] == "user" and only_tool_results(previous["content"]):
            previous["content"].append(result)  # consecutive tool replies answer one assistant turn
        else:
            self.messages.append({"role": "user", "content": [result]})

    def _with_tool_calls(self, content: Any, message: dict, where: str) -> Any:
        calls = message.get("tool_calls") or []
        if not calls:
            return content
        if not isinstance(calls, list):
            raise ConversationError("'tool_calls' must be a list", where=where)
        blocks = ([{"type": "text", "text": content}] if content else []) if isinstance(content, str) else content
        for position, call in enumerate(calls):
            blocks.append(self._tool_use(call, f"{where}.tool_calls[{position}]"))
        return blocks

    def _tool_use(self, call: Any, where: str) -> dict:
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict) or not isinstance(call.get("id"), str) \
                or not isinstance(function.get("name"), str):
            raise ConversationError("a tool call needs 'id' and 'function': {'name', 'arguments'}", where=where)
        arguments = function.get("arguments", "{}")
        try:
            tool_input = json.loads(arguments) if isinstance(arguments, str) else arguments
        except (ValueError, RecursionError):  # ValueError: invalid JSON, or a number too long to convert
            tool_input = arguments
            self.warnings.append(LoadWarning(
                f"tool call {call['id']!r}: 'arguments' is not valid JSON; kept as a string",
                index=len(self.messages)))
        else:
            # parsed here, after the file's nesting check: keep the conversation within the same bound
            if isinstance(arguments, str) and too_deep(tool_input, MAX_NESTING_DEPTH - 5):
                tool_input = arguments
                self.warnings.append(LoadWarning(
                    f"tool call {call['id']!r}: 'arguments' nest deeper than the maximum of "
                    f"{MAX_NESTING_DEPTH} levels; kept as a string", index=len(self.messages)))
        return {"type": "tool_use", "id": call["id"], "name": function["name"], "input": tool_input}


def _content(content: Any, where: str) -> Any:
    """A string stays a string; a list of OpenAI parts becomes Anthropic blocks; null is empty text."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise ConversationError(f"'content' must be a string or a list of parts, got {kind_of(content)}",
                                where=where)
    return [_part(part, f"{where}: content[{i}]") for i, part in enumerate(content)]


def _part(part: Any, where: str) -> dict:
    kind = part.get("type") if isinstance(part, dict) else None
    if kind == "text" and isinstance(part.get("text"), str):
        return {"type": "text", "text": part["text"]}
    if kind == "refusal" and isinstance(part.get("refusal"), str):
        return {"type": "text", "text": part["refusal"]}
    if kind == "image_url":
        image = part.get("image_url")
        url = image.get("url") if isinstance(image, dict) else image
        if isinstance(url, str):
            return {"type": "image", "source": _image_source(url)}
    raise ConversationError(f"cannot place a content part of type {kind!r}", where=where)


def _image_source(url: str) -> dict:
    if url.startswith("data:") and ";base64," in url:
        media_type, data = url[5:].split(";base64,", 1)
        return {"type": "base64", "media_type": media_type, "data": data}
    return {"type": "url", "url": url}


def _text(content: Any, where: str) -> str:
    converted = _content(content, where)
    if isinstance(converted, str):
        return converted
    return "\n".join(block["text"] for block in converted if block["type"] == "text")


def _tool(tool: Any, where: str) -> dict:
    """An OpenAI function tool as an Anthropic tool definition."""
    function = tool.get("function") if isinstance(tool, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        raise ConversationError("a tool must be {'type': 'function', 'function': {'name', ...}}", where=where)
    if too_deep(function, MAX_NESTING_DEPTH - 3):
        raise depth_error(where)
    converted = {"name": function["name"], "input_schema": function.get("parameters") or {"type": "object"}}
    if isinstance(function.get("description"), str):
        converted["description"] = function["description"]
    return converted
