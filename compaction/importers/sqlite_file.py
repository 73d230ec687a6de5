"""A SQLite database given as bytes (an agent that keeps its sessions in one: its package reads the
tables), opened in memory, queries only: the user's file is never opened for writing.

A database in WAL mode (header bytes 18 and 19 set to 2) cannot be opened in memory as it is: the copy
read here says the legacy journal instead, which changes nothing of its tables. What the writer had not
yet moved from the `-wal` file beside it is not in the bytes (`in_wal_mode` tells a reader to say so)."""

import os
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from compaction.errors import ConversationError

HEADER = b"SQLite format 3\x00"
_WAL_VERSION = 2  # header bytes 18 (write) and 19 (read): 2 in WAL mode


def is_sqlite(data: bytes) -> bool:
    return data.startswith(HEADER)


def in_wal_mode(data: bytes) -> bool:
    return data[18:20] == bytes((_WAL_VERSION, _WAL_VERSION))


def open_bytes(data: bytes) -> sqlite3.Connection:
    """A connection to a copy of the database in memory, queries only (sqlite3.Error when it is none)."""
    copy = bytearray(data)
    if in_wal_mode(data):
        copy[18:20] = b"\x01\x01"  # the legacy journal: a database in memory has no WAL
    connection = sqlite3.connect(":memory:")
    connection.deserialize(bytes(copy))
    connection.execute("PRAGMA query_only = ON")
    return connection


def has_tables(data: bytes, required: dict[str, set[str]]) -> bool:
    """Whether `data` is a SQLite database whose tables have at least the required columns (how an
    agent's database is told from any other)."""
    if not is_sqlite(data):
        return False
    try:
        with closing(open_bytes(data)) as connection:
            return all(needed <= columns(connection, table) for table, needed in required.items())
    except sqlite3.Error:
        return False


def columns(connection: sqlite3.Connection, table: str) -> set[str]:
    """The columns of `table` (none when there is no such table)."""
    return {row[0] for row in connection.execute("SELECT name FROM pragma_table_info(?)", (table,))}


def rows(connection: sqlite3.Connection, table: str, wanted: tuple[str, ...], order: str) -> list[dict[str, Any]]:
    """Every row of `table` with the wanted columns, in `order` (fixed names only); a column the
    database's version does not have reads as None."""
    present = columns(connection, table)
    chosen = [column if column in present else f"NULL AS {column}" for column in wanted]
    query = f"SELECT {', '.join(chosen)} FROM {table} ORDER BY {order}"  # noqa: S608 (fixed names)
    return [dict(zip(wanted, row, strict=True)) for row in connection.execute(query)]


def database_bytes(path: Path, limit: int) -> bytes | None:
    """The bytes of the SQLite file at `path`, or None for any other file, one over `limit` bytes, or one
    that cannot be read here (its loading says why): how a lister of a database's sessions reads it."""
    try:
        with path.open("rb") as handle:
            if handle.read(len(HEADER)) != HEADER or os.fstat(handle.fileno()).st_size > limit:
                return None
            handle.seek(0)
            return handle.read()
    except OSError:
        return None


def sessions_and_messages(data: bytes, label: str, session_columns: tuple[str, ...],
                          message_columns: tuple[str, ...], message_order: str) -> tuple[list[dict[str, Any]],
                                                                                      dict[str, list[dict[str, Any]]]]:
    """An agent database's `sessions` rows (oldest first) and its `messages` rows grouped by `session_id`, in
    `message_order`; ConversationError naming the file when SQLite cannot read it."""
    try:
        with closing(open_bytes(data)) as connection:
            sessions = rows(connection, "sessions", session_columns, "created_at, rowid")
            messages: dict[str, list[dict[str, Any]]] = {}
            for row in rows(connection, "messages", message_columns, message_order):
                messages.setdefault(row["session_id"], []).append(row)
    except sqlite3.Error as exc:
        raise ConversationError(f"a SQLite database SQLite cannot read: {exc}", where=label) from None
    return sessions, messages
