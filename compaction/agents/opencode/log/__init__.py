"""OpenCode sessions (sst/opencode), in Anthropic form, from every form a person has of them:

- `opencode export <session>`: `{info, messages: [{info, parts}]}`, a list of such exports, or the
  server's `[{info, parts}]` for one session (session.py);
- the database of 1.x, `~/.local/share/opencode/opencode.db`: every session of every project (database.py);
- the JSON files of older versions, `~/.local/share/opencode/storage/` (storage.py).

A database or an export of several sessions lists each as a session of its own in a corpus
(importers/runs.py); loaded whole, its first session is read, and a warning says how many it holds.
Calls, usage, cost and the log's own compactions: assemble.py. The files do not record the system
prompt, the tools, nor the model's window (OpenCode takes it from models.dev).
"""

from pathlib import Path
from typing import Any

from compaction.agents.opencode.log import database, storage
from compaction.agents.opencode.log.assemble import Assembled, Walk
from compaction.agents.opencode.log.session import Session, looks_like, sessions_of
from compaction.errors import ConversationError
from compaction.importers.checks import build_conversation
from compaction.importers.runs import PART_OF_A_SESSION, RunKey
from compaction.importers.source import parse_document, read_source
from compaction.importers.sqlite_file import HEADER, in_wal_mode, is_sqlite
from compaction.model.conversation import Conversation, LoadWarning
from compaction.words import plural, verb

FORMAT = "opencode"
_HEAD = 65_536  # bytes read of a .json file to tell whether it may be an export of several sessions


def looks_like_document(value: Any) -> bool:
    """An export (or several), a session's messages, or one of the older storage's own files."""
    return looks_like(value) or storage.is_session_info(value) or storage.is_stored_piece(value)


def from_json(value: Any, label: str) -> Conversation:
    if storage.is_session_info(value) or storage.is_stored_piece(value):
        raise ConversationError("one file of OpenCode's older storage (storage/session, message or part): its "
                                "session is read from the storage folder; give the folder to `corpus`", where=label)
    return _first(sessions_of(value, label), label)


def load_bytes(data: bytes, label: str, path: Path | None = None) -> Conversation:
    """The database's first session: read where the file lies (its -wal file beside it applied), else from
    its bytes (an upload), which hold what OpenCode had checkpointed."""
    with database.opened(path, label) if path is not None else database.opened_bytes(data, label) as connection:
        rows = database.session_rows(connection, label)
        if not rows:
            raise ConversationError("the OpenCode database holds no session", where=label)
        loaded = _first([database.read_session(connection, rows[0], label)], label, len(rows))
    if path is None and in_wal_mode(data):
        loaded.warnings.append(LoadWarning("read without its -wal file (an upload): what OpenCode wrote since its "
                                           "last checkpoint is not in it", kind="without_wal"))
    return loaded


def sessions(path: Path) -> tuple[RunKey, ...]:
    """The sessions of a database or an export holding two or more, a stored session's one; () otherwise."""
    name = path.name.lower()
    try:
        if name.endswith(".db"):
            with path.open("rb") as handle:
                if not is_sqlite(handle.read(len(HEADER))):
                    return ()
            with database.opened(path, path.name) as connection:
                rows = database.session_rows(connection, path.name)
            listed = [(row["id"], row["title"]) for row in rows]
            return _keys(listed) if len(listed) > 1 else ()
        if storage.is_stored_piece_path(path):
            return PART_OF_A_SESSION
        if storage.is_stored_session(path):
            title = storage.read_info(path, path.name).get("title")
            return _keys([(path.stem, title if isinstance(title, str) else path.stem)])
        with path.open("rb") as handle:
            head = handle.read(_HEAD)
        if not head.lstrip().startswith(b"[") or b'"info"' not in head or b'"messages"' not in head:
            return ()
        found = _sessions_in_export(path)
        return _keys([(session.id, session.title) for session in found]) if len(found) > 1 else ()
    except (OSError, ConversationError):
        return ()


def load_session(path: Path, key: RunKey, label: str) -> Conversation:
    name = path.name.lower()
    if name.endswith(".db"):
        with database.opened(path, label) as connection:
            row = next((row for row in database.session_rows(connection, label) if row["id"] == key.instance), None)
            if row is None:
                raise ConversationError(f"session {key.instance} is no longer in the database: read the folder again",
                                        where=label)
            return conversation(database.read_session(connection, row, label), label)
    if storage.is_stored_session(path):
        return conversation(storage.read_stored(path, label), label)
    found = _sessions_in_export(path, label)
    session = next((item for item in found if item.id and item.id == key.instance), None)
    if session is None and not key.instance and 0 < key.line <= len(found):
        session = found[key.line - 1]
    if session is None:
        raise ConversationError(f"session {key.name} is no longer in the file: read the folder again", where=label)
    return conversation(session, label)


def _sessions_in_export(path: Path, label: str | None = None) -> list[Session]:
    data, label = read_source(path, label)
    document = parse_document(data, label)
    if document is None:
        raise ConversationError("not one JSON document", where=label)
    return sessions_of(document.value, label)


def _keys(listed: list[tuple[str, str]]) -> tuple[RunKey, ...]:
    keys, names = [], set()
    for number, (session_id, title) in enumerate(listed, start=1):
        name = title or session_id or f"session {number}"
        if name in names:
            name = f"{name} ({session_id or number})"
        names.add(name)
        keys.append(RunKey(number, name, session_id or None, FORMAT))
    return tuple(keys)


def _first(found: list[Session], label: str, total: int | None = None) -> Conversation:
    loaded = conversation(found[0], label)
    total = total or len(found)
    if total > 1:
        loaded.warnings.insert(0, LoadWarning(f"the file holds {total:,} sessions; the first ({found[0].title}) is "
                                              "loaded: a corpus of the file lists each", kind="first_run"))
    return loaded


def conversation(session: Session, label: str) -> Conversation:
    out = Walk().read(session)
    if not out.messages:
        raise ConversationError(f"session {session.title} has no message to or from the model "
                                f"({plural(len(session.messages), 'message')} in the file)", where=label)
    usage = out.usage if any(out.usage) else []
    return build_conversation(out.messages, label, FORMAT, _warnings(out), metadata=_metadata(session, out),
                              fresh_starts=frozenset(out.fresh), usage=usage,
                              timestamps=out.timestamps if any(out.timestamps) else [])


def _metadata(session: Session, out: Assembled) -> dict:
    info = session.info
    calls = [u for m, u in zip(out.messages, out.usage, strict=True) if m["role"] == "assistant"]
    summary_calls = [call["usage"] for call in out.compaction_calls if call["usage"]]
    return {
        "layout": session.layout,
        "session_id": session.id or None,
        "title": info.get("title") if isinstance(info.get("title"), str) else None,
        "agent_version": info.get("version") if isinstance(info.get("version"), str) else None,
        "cwd": info.get("directory") if isinstance(info.get("directory"), str) else None,
        "parent_session_id": info.get("parentID") if isinstance(info.get("parentID"), str) else None,
        "models": out.models,
        "compact_boundaries": out.boundaries,
        "compact_summary_indices": out.summaries,
        "calls": len(calls),
        "calls_without_usage": sum(1 for u in calls if u is None),
        "logged_cost_usd": round(sum((u.get("cost_usd", 0.0) for u in calls if u), 0.0), 9),
        "compaction_calls": len(out.compaction_calls),
        "compaction_cost_usd": round(sum((u.get("cost_usd", 0.0) for u in summary_calls), 0.0), 9),
        **{name: out.counts.get(name, 0) for name in (
            "failed_compactions", "compactions_without_summary", "pruned_tool_outputs", "interrupted_tools",
            "empty_steps", "empty_user_messages", "messages_of_no_role", "prompts_after_results")},
    }


def _warnings(out: Assembled) -> list[LoadWarning]:
    found = list(out.warnings)
    if out.counts.get("failed_compactions"):
        found.append(LoadWarning(f"{plural(out.counts['failed_compactions'], 'compaction')} wrote no summary (an error or an "
                                 "empty reply): no boundary there, their calls are counted apart",
                                 kind="failed_compaction"))
    if out.counts.get("pruned_tool_outputs"):
        found.append(LoadWarning(f"{plural(out.counts['pruned_tool_outputs'], 'tool output')} "
                                 f"{verb(out.counts['pruned_tool_outputs'], 'was', 'were')} pruned by OpenCode (sent as "
                                 "'[Old tool result content cleared]' after that); the file keeps them whole and so "
                                 "does the conversation", kind="pruned_outputs"))
    return found


__all__ = ["FORMAT", "conversation", "from_json", "load_bytes", "load_session", "looks_like_document", "sessions"]
