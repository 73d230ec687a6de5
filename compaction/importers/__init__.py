"""One loader for the conversation formats people bring: Anthropic Messages, Claude Code JSONL, OpenAI chat,
Codex CLI rollouts, Gemini CLI chats.

`load_conversation(source, format="auto", name=None)` returns a Conversation in Anthropic form, with
the detected format, warnings (message indices) and metadata. Bad input raises ConversationError
naming the file and the line, field or message index; never a bare exception.
"""

from pathlib import Path
from typing import Any

from ..conversation import Conversation, LoadWarning
from ..errors import ConversationError
from ..limits import check_value_count
from . import anthropic, claude_code, codex, gemini, openai, openhands, swe_agent
from .jsonl import read_lines
from .source import MAX_FILE_BYTES, MAX_NESTING_DEPTH, parse_document, read_source
from .surrogates import might_hold_surrogates, without_lone_surrogates

FORMATS = ("auto", "anthropic", "claude-code", "openai", "swe-agent", "openhands", "codex", "gemini")

# Roles and keys only OpenAI chat messages have.
_OPENAI_ROLES = ("system", "developer", "tool", "function")  # a tuple: roles may be unhashable junk
_OPENAI_KEYS = ("tool_calls", "tool_call_id", "function_call")
_ANTHROPIC_BLOCKS = ("tool_use", "tool_result", "thinking", "image", "document")


def load_conversation(source: str | Path | bytes, format: str = "auto", name: str | None = None) -> Conversation:
    """Load a conversation file (path) or its contents (bytes); `name` labels it in messages."""
    if format not in FORMATS:
        raise ConversationError(f"unknown format {format!r}; expected one of {', '.join(FORMATS)}")
    data, label = read_source(source, name)
    check_value_count(data, label)  # before parsing: the memory bound (docs/limits.md)
    conversation = _parse(data, label, format)
    if might_hold_surrogates(data):
        conversation = without_lone_surrogates(conversation)
    return conversation


def _parse(data: bytes, label: str, format: str) -> Conversation:
    if format == "claude-code":
        return claude_code.load(read_lines(data, label))
    if format == "codex":
        return codex.load(read_lines(data, label))
    document = parse_document(data, label)
    if document is None:  # JSON lines
        lines = read_lines(data, label)
        if format == "auto" and codex.looks_like(lines.objects):
            return codex.load(lines)
        if format == "gemini" or (format == "auto" and gemini.looks_like_lines(lines.objects)):
            return gemini.from_lines(lines)
        if format == "anthropic" or (format == "auto" and _first_object_is_message(lines.objects)):
            return anthropic.from_lines(lines)
        if format in ("auto", "openhands", "swe-agent") and lines.objects and _is_run_record(lines.objects[0][1]):
            return _first_run(lines, format)
        if format in ("auto", "claude-code"):
            return claude_code.load(lines)
        raise ConversationError(f"the {format} format is one JSON document, not JSON lines", where=label)
    value = document.value
    detected = detect_format(value) if format == "auto" else format
    if detected == "claude-code":
        return claude_code.load(read_lines(data, label))
    if detected == "swe-agent":
        return swe_agent.from_json(value, label)
    if detected == "openhands":
        return openhands.from_json(value, label)
    if detected == "openai":
        return openai.from_json(value, label)
    if detected == "gemini":
        return gemini.from_json(value, label)
    return anthropic.from_json(value, label)


def detect_format(value: Any) -> str:
    """The format of a parsed JSON document, from its top level and its first messages."""
    if isinstance(value, dict) and "messages" not in value and isinstance(value.get("type"), str) \
            and any(key in value for key in ("uuid", "sessionId", "leafUuid")):
        return "claude-code"
    if gemini.looks_like(value):
        return "gemini"
    if swe_agent.looks_like(value):
        return "swe-agent"
    if openhands.looks_like(value):
        return "openhands"
    if isinstance(value, dict):
        tools = value.get("tools")
        if isinstance(tools, list) and any(
                isinstance(t, dict) and ("function" in t or t.get("type") == "function") for t in tools):
            return "openai"
        value = value.get("messages")
    if not isinstance(value, list):
        return "anthropic"
    # An Anthropic block or an OpenAI key decides; a plain chat shows neither, so look further only then.
    for message in value:
        if _is_openai_message(message):
            return "openai"
        if _has_anthropic_blocks(message):
            return "anthropic"
    return "anthropic"


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


def _is_run_record(value: dict) -> bool:
    """A line of an evaluation's output file: one agent run, its conversation under `history`."""
    return isinstance(value.get("history"), list) and "type" not in value and "role" not in value


def _first_run(lines, format: str) -> Conversation:
    """The first run of an evaluation output (one run a line), with a note of how many there are."""
    number, row = lines.objects[0]
    kind = format if format != "auto" else ("openhands" if openhands.looks_like(row["history"]) else "swe-agent")
    loader = openhands if kind == "openhands" else swe_agent
    conversation = loader.from_json(row if kind == "swe-agent" else row["history"], f"{lines.label}: line {number}")
    runs = len(lines.objects)
    if runs > 1:
        name = row.get("instance_id") or number
        conversation.warnings.insert(0, LoadWarning(
            f"the file holds {runs:,} runs, one a line; the first (instance {name}) is loaded", kind="first_run"))
    conversation.source = lines.label
    return conversation


def _first_object_is_message(objects: list[tuple[int, dict]]) -> bool:
    """JSONL of bare messages (the pipeline's transcripts) rather than Claude Code session lines."""
    return bool(objects) and "role" in objects[0][1] and "type" not in objects[0][1]


__all__ = ["FORMATS", "MAX_FILE_BYTES", "MAX_NESTING_DEPTH", "detect_format", "load_conversation"]
