"""One loader for the conversation formats people bring: Anthropic Messages, Claude Code JSONL, OpenAI chat.

`load_conversation(source, format="auto", name=None)` returns a Conversation in Anthropic form, with
the detected format, warnings (message indices) and metadata. Bad input raises ConversationError
naming the file and the line, field or message index; never a bare exception.
"""

from pathlib import Path
from typing import Any

from ..conversation import Conversation
from ..errors import ConversationError
from ..limits import check_value_count
from . import anthropic, claude_code, openai
from .source import (
    MAX_FILE_BYTES,
    MAX_NESTING_DEPTH,
    decode,
    jsonl_objects,
    looks_like_jsonl,
    parse_json,
    read_source,
)
from .surrogates import might_hold_surrogates, without_lone_surrogates

FORMATS = ("auto", "anthropic", "claude-code", "openai")

# Roles and keys only OpenAI chat messages have.
_OPENAI_ROLES = ("system", "developer", "tool", "function")  # a tuple: roles may be unhashable junk
_OPENAI_KEYS = ("tool_calls", "tool_call_id", "function_call")


def load_conversation(source: str | Path | bytes, format: str = "auto", name: str | None = None) -> Conversation:
    """Load a conversation file (path) or its contents (bytes); `name` labels it in messages."""
    if format not in FORMATS:
        raise ConversationError(f"unknown format {format!r}; expected one of {', '.join(FORMATS)}")
    data, label = read_source(source, name)
    text = decode(data, label)
    del data
    check_value_count(text, label)  # before parsing: the memory bound (docs/limits.md)
    conversation = _parse(text, label, format)
    if might_hold_surrogates(text):
        conversation = without_lone_surrogates(conversation)
    return conversation


def _parse(text: str, label: str, format: str) -> Conversation:
    if format == "claude-code":
        return claude_code.load(text, label)
    if looks_like_jsonl(text) and format in ("auto", "anthropic"):
        if format == "anthropic" or _first_line_is_message(text, label):
            return anthropic.from_jsonl(text, label)
        return claude_code.load(text, label)
    value = parse_json(text, label)
    detected = detect_format(value) if format == "auto" else format
    if detected == "claude-code":
        return claude_code.load(text, label)
    if detected == "openai":
        return openai.from_json(value, label)
    return anthropic.from_json(value, label)


def detect_format(value: Any) -> str:
    """The format of a parsed JSON document: "claude-code" (a one-line session), "openai" or "anthropic"."""
    if isinstance(value, dict) and "messages" not in value and isinstance(value.get("type"), str) \
            and ("uuid" in value or "sessionId" in value):
        return "claude-code"
    if isinstance(value, dict):
        tools = value.get("tools")
        if isinstance(tools, list) and any(
                isinstance(t, dict) and ("function" in t or t.get("type") == "function") for t in tools):
            return "openai"
        value = value.get("messages")
    if isinstance(value, list) and any(_is_openai_message(message) for message in value):
        return "openai"
    return "anthropic"


def _is_openai_message(message: Any) -> bool:
    if not isinstance(message, dict):
        return False
    if message.get("role") in _OPENAI_ROLES or any(key in message for key in _OPENAI_KEYS):
        return True
    content = message.get("content")
    return isinstance(content, list) and any(
        isinstance(part, dict) and part.get("type") == "image_url" for part in content)


def _first_line_is_message(text: str, label: str) -> bool:
    """JSONL of bare messages (the pipeline's transcripts) rather than Claude Code session lines."""
    for _, first in jsonl_objects(text, label):
        return "role" in first and "type" not in first
    return False


__all__ = ["FORMATS", "MAX_FILE_BYTES", "MAX_NESTING_DEPTH", "detect_format", "load_conversation"]
