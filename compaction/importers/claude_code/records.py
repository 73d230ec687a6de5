"""One Claude Code JSONL line as a record of the parentUuid tree: a message, a compaction boundary, or
another line that only connects the tree (progress, attachment, ...). There is no official schema:
the fields read here are those the files are seen to carry (shared/REFERENCE.md, section 7)."""

from dataclasses import dataclass, field
from typing import Any

from compaction.errors import ConversationError
from compaction.importers.checks import check_message
from compaction.importers.source import kind_of

# Line types Claude Code writes that carry no message; anything else unknown is counted as unknown.
KNOWN_OTHER_TYPES = frozenset({
    "system", "summary", "file-history-snapshot", "queue-operation", "progress", "attachment",
    "custom-title", "ai-title", "last-prompt", "cost-state", "tag", "mode", "permission-mode", "atis-latch",
})
USAGE_KEYS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens")
# usage.cache_creation's split of the writes by cache lifetime, under the names our usage dicts give them
CACHE_LIFETIME_KEYS = (("ephemeral_5m_input_tokens", "cache_write_5m_tokens"),
                       ("ephemeral_1h_input_tokens", "cache_write_1h_tokens"))


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
    usage: dict[str, int | str] | None = None  # the four counts; "model" and the lifetime split when written
    compact_summary: bool = False
    boundary: dict = field(default_factory=dict)
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
    timestamp = line.get("timestamp") if isinstance(line.get("timestamp"), str) else ""
    node_id = uuid or f"line:{number}"
    if line_type in ("user", "assistant"):
        return _message_record(line, line_type, number, label, node_id, parent, timestamp)
    if line_type == "system" and line.get("subtype") == "compact_boundary":
        info = line.get("compactMetadata") if isinstance(line.get("compactMetadata"), dict) else {}
        boundary = {"trigger": info.get("trigger"), "pre_tokens": info.get("preTokens")}
        return Record(number, node_id, parent, "boundary", timestamp, boundary=boundary)
    if uuid is None:
        return None
    # Other lines with a uuid stay in the tree so that children pointing at them stay connected.
    return Record(number, node_id, parent, "other", timestamp)


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


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def read_usage(usage: Any, model: Any = None) -> dict[str, int | str] | None:
    """The four token counts of a response's usage (0 for one not written), then, when the line has
    them, `model` (message.model, for its price) and the cache writes by lifetime (1-hour writes cost
    2 x input, 5-minute ones 1.25 x). None when there is no usage or it is all zero (a line Claude
    Code wrote itself, not a model response)."""
    if not isinstance(usage, dict):
        return None
    counts: dict[str, int | str] = {key: usage[key] if _whole(usage.get(key)) else 0 for key in USAGE_KEYS}
    if not any(counts.values()):
        return None
    if isinstance(model, str) and model:
        counts["model"] = model
    split = usage.get("cache_creation")
    if isinstance(split, dict):
        counts.update({ours: split[theirs] for theirs, ours in CACHE_LIFETIME_KEYS if _whole(split.get(theirs))})
    return counts
