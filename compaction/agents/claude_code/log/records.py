"""One Claude Code JSONL line as a record of the parentUuid tree: a message, a compaction boundary, or
another line that only connects the tree (progress, attachment, ...). There is no official schema:
the fields read here are those the files are seen to carry (hand-written examples of each observed layout: tests/importers/cases/valid).

Two kinds of line are read for what they say beside the tree:
- a response Claude Code wrote itself (model `<synthetic>`: "No response requested.", an API error's text)
  made no API call; it is marked `synthetic` and becomes a note, not a model call (assemble.py);
- an `attachment` line (from 2.1.92 written after a compaction's summary: the files re-attached, the
  plan, skills, hook output, tool deltas) keeps its type and how much text it carries (`attachment`)."""

from dataclasses import dataclass, field
from typing import Any

from compaction.errors import ConversationError
from compaction.importers.checks import check_message
from compaction.importers.fields import object_at, text_at
from compaction.importers.source import kind_of
from compaction.importers.usage import from_anthropic as read_usage
from compaction.importers.usage import made_no_call

# Line types Claude Code writes that carry no message; anything else unknown is counted as unknown.
KNOWN_OTHER_TYPES = frozenset({
    "system", "summary", "file-history-snapshot", "queue-operation", "progress", "attachment",
    "custom-title", "ai-title", "last-prompt", "cost-state", "tag", "mode", "permission-mode", "atis-latch",
})


@dataclass
class Record:
    line: int
    uuid: str  # the line's uuid, or "line:N" for a line without one
    parent: str | None  # parentUuid (or logicalParentUuid across a compaction)
    kind: str  # "message" | "boundary" | "other"
    timestamp: str = ""
    role: str = ""
    content: Any = None
    message_id: str | None = None  # message.id: the lines of one response share it
    request_id: str | None = None  # requestId: likewise, where message.id is missing
    source_tool: str | None = None  # sourceToolAssistantUUID: the line of the tool_use a result answers
    usage: dict[str, Any] | None = None  # usage.py
    compact_summary: bool = False
    boundary: dict = field(default_factory=dict)
    tool_use_id: str | None = None  # toolUseID of a progress line: the call whose hook or tool it reports
    synthetic: bool = False  # a response Claude Code wrote itself, text only: no API call
    attachment: dict | None = None  # an attachment line's {"type", "chars"[, "filename", "path_only", "lines"]}
    warnings: list[str] = field(default_factory=list)

    @property
    def response_key(self) -> str | None:
        return self.message_id or self.request_id

    @property
    def is_message(self) -> bool:
        return self.kind == "message"


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def read_record(line: dict, number: int, label: str) -> Record | None:
    """The tree record of a line, or None for a line outside the tree (no uuid and no message)."""
    line_type = line.get("type")
    uuid = _text(line.get("uuid"))
    parent = _text(line.get("parentUuid")) or _text(line.get("logicalParentUuid"))
    timestamp = text_at(line, "timestamp")
    node_id = uuid or f"line:{number}"
    if line_type in ("user", "assistant"):
        return _message_record(line, line_type, number, label, node_id, parent, timestamp)
    if line_type == "system" and line.get("subtype") == "compact_boundary":
        info = object_at(line, "compactMetadata")
        boundary = {"trigger": info.get("trigger"), "pre_tokens": info.get("preTokens")}
        if isinstance(info.get("postTokens"), int) and not isinstance(info.get("postTokens"), bool):
            boundary["post_tokens"] = info["postTokens"]  # 2.1.1xx: the conversation after it, no system or tools
        if isinstance(info.get("durationMs"), int | float) and not isinstance(info.get("durationMs"), bool):
            boundary["duration_ms"] = info["durationMs"]  # how long the compaction call took
        kept = object_at(info, "preservedMessages").get("uuids")
        if isinstance(kept, list):
            boundary["preserved_messages"] = len(kept)  # 2.1.16x: messages kept whole across the compaction
        if timestamp:
            boundary["time"] = timestamp
        return Record(number, node_id, parent, "boundary", timestamp, boundary=boundary)
    if uuid is None:
        return None
    # Other lines with a uuid stay in the tree so that children pointing at them stay connected.
    return Record(number, node_id, parent, "other", timestamp, tool_use_id=_text(line.get("toolUseID")),
                  attachment=attachment_view(line.get("attachment")) if line_type == "attachment" else None)


def text_chars(value: Any, depth: int = 0) -> int:
    """Characters of the text in a JSON value (its strings, however nested): what a line gives the model."""
    if isinstance(value, str):
        return len(value)
    if depth > 20:
        return 0
    if isinstance(value, dict):
        return sum(text_chars(item, depth + 1) for key, item in value.items() if key != "type")
    if isinstance(value, list):
        return sum(text_chars(item, depth + 1) for item in value)
    return 0


def attachment_view(attachment: Any) -> dict | None:
    """What an attachment line carries: its type and characters of text; for a file, its name, and whether
    it came back as a path only (`compact_file_reference`, 2.1.128) rather than with its content."""
    if not isinstance(attachment, dict) or not isinstance(attachment.get("type"), str):
        return None
    kind = attachment["type"]
    view: dict[str, Any] = {"type": kind, "chars": text_chars(attachment)}
    if kind in ("file", "compact_file_reference") and isinstance(attachment.get("filename"), str):
        view["filename"] = attachment["filename"]
        view["path_only"] = kind == "compact_file_reference"
        file = object_at(object_at(attachment, "content"), "file")
        if isinstance(file.get("numLines"), int) and not isinstance(file.get("numLines"), bool):
            view["lines"] = file["numLines"]  # shown to the model with a line number each, as Read shows them
    return view


def _message_record(line: dict, line_type: str, number: int, label: str, node_id: str, parent: str | None,
                    timestamp: str) -> Record:
    where = f"{label}: line {number}"
    message = line.get("message")
    if not isinstance(message, dict):
        raise ConversationError(f"the {line_type} line needs a 'message' object, got {kind_of(message)}", where=where)
    role = message.get("role", line_type)
    if role != line_type:
        raise ConversationError(f"the {line_type} line holds a message with role {role!r}", where=where)
    warnings = check_message({"role": role, "content": message.get("content")}, where)
    content = message.get("content")
    return Record(number, node_id, parent, "message", timestamp, role, content,
                  message_id=_text(message.get("id")), request_id=_text(line.get("requestId")),
                  source_tool=_text(line.get("sourceToolAssistantUUID")),
                  usage=read_usage(message.get("usage"), message.get("model")) if role == "assistant" else None,
                  compact_summary=line.get("isCompactSummary") is True,
                  synthetic=role == "assistant" and made_no_call(message.get("model")) and _text_only(content),
                  warnings=warnings)


def _text_only(content: Any) -> bool:
    """Text and nothing else (no tool call that a result would answer)."""
    if isinstance(content, str):
        return True
    return isinstance(content, list) and all(isinstance(b, dict) and b.get("type") == "text" for b in content)
