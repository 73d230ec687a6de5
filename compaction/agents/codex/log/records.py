"""The lines of a Codex rollout as records, in both layouts seen in real files.

- The envelope layout (cli 0.34 on): each line `{timestamp, type, payload}` with type `session_meta`,
  `turn_context`, `response_item`, `event_msg` or `compacted` (codex-rs/protocol: RolloutLine).
- The 2025 layout (August 2025 files): a bare first line `{id, timestamp, instructions, git}`, then the
  response items themselves, one a line, between `{"record_type": "state"}` lines; no model, no version
  and no token counts anywhere.
The session's own facts (id, version, base instructions) are gathered here too.
"""

from dataclasses import dataclass, field
from typing import Any

from compaction.errors import ConversationError
from compaction.importers.jsonl import JsonLines
from compaction.importers.source import kind_of

ENVELOPE_TYPES = ("session_meta", "turn_context", "response_item", "event_msg", "compacted")


@dataclass(frozen=True)
class Record:
    line: int
    kind: str  # "item" | "event" | "turn_context" | "compacted" | "meta" | "state" | "other"
    payload: dict
    timestamp: str | None = None
    label: str = ""  # the file, for errors

    @property
    def where(self) -> str:
        return f"{self.label}: line {self.line}"


@dataclass
class Session:
    layout: str = "envelope"  # or "legacy-2025"
    facts: dict[str, Any] = field(default_factory=dict)  # id, cli_version, originator, ...
    base_instructions: str | None = None
    meta_lines: int = 0
    state_lines: int = 0
    other_lines: dict[str, int] = field(default_factory=dict)  # line type -> count, for types not read


def looks_like(objects: list[tuple[int, dict]]) -> bool:
    """Whether JSON lines are a Codex rollout: an envelope line among the first few, or the 2025 header."""
    head = [value for _, value in objects[:5]]
    if any(value.get("type") in ENVELOPE_TYPES and "payload" in value for value in head):
        return True
    return bool(head) and _is_legacy_header(head[0]) and (
        len(head) == 1 or "record_type" in head[1] or isinstance(head[1].get("type"), str))


def _is_legacy_header(value: dict) -> bool:
    return isinstance(value.get("id"), str) and "timestamp" in value and "type" not in value and "role" not in value \
        and ("instructions" in value or "git" in value)


def read_records(lines: JsonLines) -> tuple[list[Record], Session]:
    session = Session()
    records: list[Record] = []
    for position, (number, value) in enumerate(lines.objects):
        where = f"{lines.label}: line {number}"
        if position == 0 and _is_legacy_header(value):
            session.layout = "legacy-2025"
            _read_meta(session, value)
            continue
        if session.layout == "legacy-2025":
            records.append(_legacy_record(session, number, value, lines.label))
            continue
        line_type = value.get("type")
        if line_type not in ENVELOPE_TYPES:
            name = line_type if isinstance(line_type, str) else "(no type)"
            session.other_lines[name] = session.other_lines.get(name, 0) + 1
            continue
        payload = value.get("payload")
        if not isinstance(payload, dict):
            raise ConversationError(f"the {line_type} line needs a 'payload' object, got {kind_of(payload)}",
                                    where=where)
        timestamp = value.get("timestamp") if isinstance(value.get("timestamp"), str) else None
        if line_type == "session_meta":
            _read_meta(session, payload)
            continue
        kind = {"response_item": "item", "event_msg": "event"}.get(line_type, line_type)
        records.append(Record(number, kind, payload, timestamp, lines.label))
    return records, session


def _legacy_record(session: Session, number: int, value: dict, label: str) -> Record:
    if value.get("record_type") == "state":
        session.state_lines += 1
        return Record(number, "state", value, None, label)
    timestamp = value.get("timestamp") if isinstance(value.get("timestamp"), str) else None
    return Record(number, "item", value, timestamp, label)


def _read_meta(session: Session, payload: dict) -> None:
    """session_meta (written again when a session is resumed: the first values stay)."""
    session.meta_lines += 1
    for key, name in (("id", "session_id"), ("cli_version", "agent_version"), ("originator", "originator"),
                      ("model_provider", "model_provider"), ("cwd", "cwd"), ("source", "source")):
        value = payload.get(key)
        if isinstance(value, str) and value and name not in session.facts:
            session.facts[name] = value
    if session.base_instructions is None:
        session.base_instructions = instructions_text(payload.get("base_instructions")) \
            or instructions_text(payload.get("instructions"))


def instructions_text(value: Any) -> str | None:
    """Instructions written as text, or as {"text": ...} (newer versions)."""
    if isinstance(value, dict):
        value = value.get("text")
    return value if isinstance(value, str) and value.strip() else None
