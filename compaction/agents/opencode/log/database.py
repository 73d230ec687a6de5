"""OpenCode 1.x's database (`~/.local/share/opencode/opencode.db`, SQLite, every session of every
project), read only, through the standard library.

Its tables (packages/opencode/src/session/session.sql.ts): `session` (id, parent_id, title, directory,
version, time_created, ...), `message` (id, session_id, time_created, data: the message's info as JSON
without its id) and `part` (id, message_id, session_id, data: the part as JSON without its ids).
Messages are in the order OpenCode reads them (time_created, then id), parts by id, as OpenCode does.
"""

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from compaction.agents.opencode.log.session import Message, Session
from compaction.errors import ConversationError
from compaction.importers.source import loads_line
from compaction.importers.sqlite_file import has_tables, open_bytes

TABLES = {"session": {"id"}, "message": {"id", "session_id"}, "part": {"id", "message_id"}}
_SESSION_COLUMNS = ("id", "parent_id", "title", "directory", "version", "time_created", "time_updated")


def is_database(data: bytes) -> bool:
    """A SQLite file with OpenCode's three tables (its header first: nothing else is opened)."""
    return has_tables(data, TABLES)


@contextmanager
def opened(path: Path, label: str) -> Iterator[sqlite3.Connection]:
    """The file opened read only (`mode=ro`): a database OpenCode is writing stays as it is."""
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as connection:
            yield connection
    except sqlite3.Error as error:
        raise ConversationError(f"cannot read the database: {error}", where=label) from None


@contextmanager
def opened_bytes(data: bytes, label: str) -> Iterator[sqlite3.Connection]:
    """An in-memory copy of an upload's bytes (importers/sqlite_file.py: without its -wal file the copy holds
    what was checkpointed)."""
    try:
        with closing(open_bytes(data)) as connection:
            yield connection
    except sqlite3.Error as error:
        raise ConversationError(f"cannot read the database: {error}", where=label) from None


def _tables(connection: sqlite3.Connection) -> set[str]:
    return {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def session_rows(connection: sqlite3.Connection, label: str) -> list[dict]:
    """Every session's row, oldest first, with its count of messages."""
    try:
        if not _tables(connection) >= TABLES.keys():
            raise ConversationError("not an OpenCode database: it has no session, message and part tables",
                                    where=label)
        rows = connection.execute(
            f"SELECT {', '.join('s.' + name for name in _SESSION_COLUMNS)}, "
            "(SELECT COUNT(*) FROM message m WHERE m.session_id = s.id) "
            "FROM session s ORDER BY s.time_created, s.id").fetchall()
    except sqlite3.Error as error:
        raise ConversationError(f"cannot read the database's sessions: {error}", where=label) from None
    return [{**dict(zip(_SESSION_COLUMNS, row[:-1], strict=True)), "messages": row[-1]} for row in rows]


def read_session(connection: sqlite3.Connection, row: dict, label: str) -> Session:
    """The session of `row` with its messages and their parts."""
    info = {"id": row["id"], "title": row["title"], "directory": row["directory"], "version": row["version"],
            "parentID": row["parent_id"], "time": {"created": row["time_created"], "updated": row["time_updated"]}}
    try:
        messages = connection.execute("SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id",
                                      (row["id"],)).fetchall()
        parts = connection.execute("SELECT message_id, id, data FROM part WHERE session_id = ? ORDER BY message_id, id",
                                   (row["id"],)).fetchall()
    except sqlite3.Error as error:
        raise ConversationError(f"cannot read session {row['id']}: {error}", where=label) from None
    by_message: dict[str, list[dict]] = {}
    for message_id, part_id, data in parts:
        part = _json(data, f"part {part_id}", label)
        by_message.setdefault(message_id, []).append({**part, "id": part_id})
    found = [Message({**_json(data, f"message {message_id}", label), "id": message_id}, by_message.get(message_id, []),
                     f"message {message_id}") for message_id, data in messages]
    return Session(info, found, "database")


def _json(data, where: str, label: str) -> dict:
    try:
        value = loads_line(data.encode("utf-8") if isinstance(data, str) else bytes(data))
    except (ValueError, TypeError, RecursionError) as error:
        raise ConversationError(f"{where}: its data is not JSON ({error})", where=label) from None
    if not isinstance(value, dict):
        raise ConversationError(f"{where}: its data is not an object", where=label)
    return value
