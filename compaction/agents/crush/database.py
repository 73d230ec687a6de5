"""Crush's database (`.crush/crush.db`, SQLite; charmbracelet/crush internal/db/migrations): opened from
the file's bytes, read only, never written. A `sessions` table (one row per session, a sub-agent's
included: `parent_session_id`) and a `messages` table (`parts`, a JSON list) are what make it Crush's.

The bytes are opened in memory (sqlite3 deserialize) with queries only. A database in WAL mode (header
bytes 18 and 19 set to 2, Crush's own setting) cannot be opened in memory as it is: the copy read here
says the legacy journal instead, which changes nothing of its tables. What Crush had not yet moved from
`crush.db-wal` into the file is not in it: a warning says so."""

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from typing import Any

from compaction.errors import ConversationError

HEADER = b"SQLite format 3\x00"
_WAL_VERSION = 2  # header bytes 18 (write) and 19 (read): 2 in WAL mode
SESSION_COLUMNS = ("id", "parent_session_id", "title", "message_count", "prompt_tokens", "completion_tokens", "cost",
                   "summary_message_id", "created_at")
MESSAGE_COLUMNS = ("id", "role", "parts", "model", "provider", "created_at", "finished_at", "is_summary_message")
REQUIRED = {"sessions": {"id", "title", "prompt_tokens", "completion_tokens", "cost"},
            "messages": {"id", "session_id", "role", "parts"}}


@dataclass(frozen=True)
class Stored:
    """What the database holds, read once: its sessions (oldest first) and each one's messages."""

    sessions: tuple[dict[str, Any], ...]
    messages: dict[str, list[dict[str, Any]]]
    wal: bool  # the file was in WAL mode: its newest changes may be in crush.db-wal beside it
    columns: frozenset[str]  # the optional columns it has (summary_message_id, is_summary_message, ...)


def is_sqlite(data: bytes) -> bool:
    return data.startswith(HEADER)


def looks_like(data: bytes) -> bool:
    """A SQLite file with Crush's two tables and their columns."""
    if not is_sqlite(data):
        return False
    try:
        with closing(_open(data)) as connection:
            return all(needed <= _columns(connection, table) for table, needed in REQUIRED.items())
    except sqlite3.Error:
        return False


def read(data: bytes, label: str) -> Stored:
    """Every session and message; ConversationError naming the file when SQLite cannot read it."""
    try:
        with closing(_open(data)) as connection:
            session_columns = _columns(connection, "sessions")
            message_columns = _columns(connection, "messages")
            sessions = _rows(connection, "sessions", SESSION_COLUMNS, session_columns, "created_at, rowid")
            messages: dict[str, list[dict[str, Any]]] = {}
            for row in _rows(connection, "messages", ("session_id", *MESSAGE_COLUMNS), message_columns,
                             "created_at, rowid"):
                messages.setdefault(row["session_id"], []).append(row)
    except sqlite3.Error as exc:
        raise ConversationError(f"a SQLite database SQLite cannot read: {exc}", where=label) from None
    optional = (session_columns | message_columns) & {"summary_message_id", "is_summary_message", "provider",
                                                      "finished_at", "parent_session_id"}
    return Stored(tuple(sessions), messages, data[18:20] == bytes((_WAL_VERSION, _WAL_VERSION)), frozenset(optional))


def _open(data: bytes) -> sqlite3.Connection:
    copy = bytearray(data)
    if copy[18:20] == bytes((_WAL_VERSION, _WAL_VERSION)):
        copy[18:20] = b"\x01\x01"  # the legacy journal: a database in memory has no WAL
    connection = sqlite3.connect(":memory:")
    connection.deserialize(bytes(copy))
    connection.execute("PRAGMA query_only = ON")
    return connection


def _columns(connection: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}  # noqa: S608 (a fixed name)


def _rows(connection: sqlite3.Connection, table: str, wanted: tuple[str, ...], present: set[str],
          order: str) -> list[dict[str, Any]]:
    """The rows with the wanted columns; a column an older Crush did not have reads as None."""
    chosen = [column if column in present else f"NULL AS {column}" for column in wanted]
    query = f"SELECT {', '.join(chosen)} FROM {table} ORDER BY {order}"  # noqa: S608 (fixed names)
    return [dict(zip(wanted, row, strict=True)) for row in connection.execute(query)]
