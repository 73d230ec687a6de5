"""One Claude Code JSONL line as a record of the parentUuid tree: a message, a compaction boundary, or
another line that only connects the tree (progress, attachment, ...). There is no official schema:
the fields read here are those the files are seen to carry (hand-written examples of each observed layout: tests/importers/cases/valid)."""

from dataclasses import dataclass, field
from typing import Any

from compaction.errors import ConversationError
from compaction.importers.checks import check_message
from compaction.importers.fields import object_at, text_at
from compaction.importers.source import kind_of
from compaction.importers.usage import from_anthropic as read_usage

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
        return Record(number, node_id, parent, "boundary", timestamp, boundary=boundary)
    if uuid is None:
        return None
    # Other lines with a uuid stay in the tree so that children pointing at them stay connected.
    return Record(number, node_id, parent, "other", timestamp, tool_use_id=_text(line.get("toolUseID")))


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
    return Record(number, node_id, parent, "message", timestamp, role, message.get("content"),
                  message_id=_text(message.get("id")), request_id=_text(line.get("requestId")),
                  source_tool=_text(line.get("sourceToolAssistantUUID")),
                  usage=read_usage(message.get("usage"), message.get("model")) if role == "assistant" else None,
                  compact_summary=line.get("isCompactSummary") is True, warnings=warnings)
