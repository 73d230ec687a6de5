"""Crush's database (`.crush/crush.db`, SQLite; charmbracelet/crush internal/db/migrations), read from the
file's bytes (importers/sqlite_file.py: in memory, queries only). A `sessions` table (one row per session,
a sub-agent's included: `parent_session_id`) and a `messages` table (`parts`, a JSON list) with their
columns are what make it Crush's. Crush keeps it in WAL mode: what it had not yet moved from
`crush.db-wal` into the file is not in it, and a warning says so."""

from dataclasses import dataclass
from typing import Any

from compaction.importers.sqlite_file import has_tables, in_wal_mode, sessions_and_messages

SESSION_COLUMNS = ("id", "parent_session_id", "title", "message_count", "prompt_tokens", "completion_tokens", "cost",
                   "summary_message_id", "created_at")
MESSAGE_COLUMNS = ("session_id", "id", "role", "parts", "model", "provider", "created_at", "finished_at",
                   "is_summary_message")
REQUIRED = {"sessions": {"id", "title", "prompt_tokens", "completion_tokens", "cost"},
            "messages": {"id", "session_id", "role", "parts"}}


@dataclass(frozen=True)
class Stored:
    """What the database holds, read once: its sessions (oldest first) and each one's messages."""

    sessions: tuple[dict[str, Any], ...]
    messages: dict[str, list[dict[str, Any]]]
    wal: bool  # the file was in WAL mode: its newest changes may be in crush.db-wal beside it


def looks_like(data: bytes) -> bool:
    """A SQLite file with Crush's two tables and their columns."""
    return has_tables(data, REQUIRED)


def read(data: bytes, label: str) -> Stored:
    """Every session and message; ConversationError naming the file when SQLite cannot read it."""
    sessions, messages = sessions_and_messages(data, label, SESSION_COLUMNS, MESSAGE_COLUMNS, "created_at, rowid")
    return Stored(tuple(sessions), messages, in_wal_mode(data))
