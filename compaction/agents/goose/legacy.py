"""Goose's session JSONL, written before the sessions database (crates/goose/src/session/legacy.rs:
~/.local/share/goose/sessions/<id>.jsonl): the first line the session's metadata (working_dir,
description, message_count, total_tokens, input_tokens, output_tokens, accumulated_*), then one message a
line ({id, role, created, content, metadata})."""

from typing import Any

from compaction.agents.goose import log
from compaction.errors import ConversationError
from compaction.importers.jsonl import JsonLines
from compaction.model.conversation import Conversation
from compaction.words import plural

METADATA_KEYS = ("working_dir", "description", "message_count", "accumulated_total_tokens")


def is_metadata(value: dict) -> bool:
    return "working_dir" in value and "role" not in value and any(key in value for key in METADATA_KEYS[1:])


def is_message(value: dict) -> bool:
    return value.get("role") in ("user", "assistant") and isinstance(value.get("content"), list) and \
        isinstance(value.get("created"), int) and "type" not in value


def looks_like(objects: list[tuple[int, dict]]) -> bool:
    """A metadata line first, or (a file cut before it) a message line in Goose's form."""
    return bool(objects) and (is_metadata(objects[0][1]) or is_message(objects[0][1]))


def load(lines: JsonLines) -> Conversation:
    objects = lines.objects
    session: dict[str, Any] = dict(objects[0][1]) if objects and is_metadata(objects[0][1]) else {}
    rows = [value for _, value in objects if is_message(value)]
    if not rows:
        raise ConversationError(f"a Goose session of {plural(len(objects), 'line')} without a message line ({{role, created, "
                                "content}})", where=lines.label)
    warnings = [w for w in (lines.skipped_warning(),) if w]
    return log.conversation(rows, session, lines.label, "the session line's accumulated_*", warnings)
