"""Goose's sessions database (crates/goose/src/session/session_manager.rs: ~/.local/share/goose/sessions/
sessions.db, SQLite, every session of the person): a `sessions` table (id, name, working_dir, the newest
call's and the accumulated tokens, model_config_json, accumulated_cost from schema 13) and a `messages`
table (session_id, role, content_json, created_timestamp, metadata_json). Read from the file's bytes
(importers/sqlite_file.py); each session a run of the file (importers/runs.py RunKey), so a corpus lists
each; loaded as one file, the newest session with messages, with a warning naming how many there are."""

import json
from pathlib import Path
from typing import Any

from compaction.agents.goose import log
from compaction.errors import ConversationError
from compaction.importers.limits import MAX_FILE_BYTES
from compaction.importers.runs import RunKey
from compaction.importers.source import read_source
from compaction.importers.sqlite_file import (
    database_bytes,
    has_tables,
    in_wal_mode,
    sessions_and_messages,
)
from compaction.model.conversation import Conversation, LoadWarning

SESSION_COLUMNS = ("id", "name", "description", "working_dir", "created_at", "total_tokens", "input_tokens",
                   "output_tokens", "accumulated_total_tokens", "accumulated_input_tokens", "accumulated_output_tokens",
                   "accumulated_cost", "provider_name", "model_config_json", "session_type")
MESSAGE_COLUMNS = ("session_id", "role", "content_json", "created_timestamp", "metadata_json")
REQUIRED = {"sessions": {"id", "working_dir", "accumulated_total_tokens"},
            "messages": {"session_id", "role", "content_json", "created_timestamp"}}


def looks_like(data: bytes) -> bool:
    return has_tables(data, REQUIRED)


def _read(data: bytes, label: str) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    sessions, messages = sessions_and_messages(data, label, SESSION_COLUMNS, MESSAGE_COLUMNS,
                                               "created_timestamp, rowid")
    return [s for s in sessions if messages.get(s["id"])], messages


def sessions(path: Path) -> tuple[RunKey, ...]:
    """A key per session with messages (its place, name and id), for a Goose database of two or more; ()
    for any other file."""
    data = database_bytes(path, MAX_FILE_BYTES)
    if data is None or not looks_like(data):
        return ()
    try:
        found, _ = _read(data, path.name)
    except ConversationError:  # its loading says why
        return ()
    keys = tuple(RunKey(number, f"{session['name'] or session['description'] or 'untitled'} ({session['id']})",
                        session["id"], log.FORMAT) for number, session in enumerate(found, start=1))
    return keys if len(keys) > 1 else ()


def load(data: bytes, label: str, _path: Path | None = None) -> Conversation:
    found, messages = _read(data, label)
    if not found:
        raise ConversationError("a Goose sessions database without a session that has messages", where=label)
    session = found[-1]
    conversation = _session(data, session, messages[session["id"]], label)
    if len(found) > 1:
        conversation.warnings.insert(0, LoadWarning(
            f"the database holds {len(found):,} sessions; the newest ({session['id']}) is loaded; a corpus of the "
            "file, or its session picker, reads each", kind="first_run"))
    return conversation


def load_session(path: Path, key: RunKey, label: str) -> Conversation:
    data = read_source(path, label)[0]
    found, messages = _read(data, label)
    session = next((s for s in found if s["id"] == key.instance), None)
    if session is None:
        raise ConversationError(f"no session {key.name} with messages any more (the file changed since its "
                                "sessions were listed): read the folder again", where=label)
    return _session(data, session, messages[session["id"]], f"{label} [{key.name}]")


def _session(data: bytes, session: dict[str, Any], found: list[dict[str, Any]], label: str) -> Conversation:
    facts = {**session, "model_config": _json(session["model_config_json"], {})}
    rows_ = [{"role": row["role"], "created": row["created_timestamp"], "content": _json(row["content_json"], []),
              "metadata": _json(row["metadata_json"], {})} for row in found]
    warnings = []
    if in_wal_mode(data):
        warnings.append(LoadWarning("the database is in WAL mode: the newest messages may still be in sessions.db-wal "
                                    "beside it, which is not read", kind="wal"))
    return log.conversation(rows_, facts, label, "sessions.accumulated_*", warnings)


def _json(raw: Any, empty: Any) -> Any:
    if not isinstance(raw, str) or not raw.strip():
        return empty
    try:
        return json.loads(raw)
    except ValueError:
        return empty
