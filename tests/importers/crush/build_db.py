"""Crush databases for the tests, built from rows written by hand: the schema is Crush's own
(charmbracelet/crush internal/db/migrations, up to 20250810000000_add_is_summary_message.sql), the rows
follow the layout of real `.crush/crush.db` files (parts as {"type", "data"} lists, created_at in seconds,
one `tool` row per result)."""

import json
import sqlite3
from pathlib import Path

SCHEMA = """
CREATE TABLE sessions (
    id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0, prompt_tokens INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0, cost REAL NOT NULL DEFAULT 0.0,
    updated_at INTEGER NOT NULL, created_at INTEGER NOT NULL, summary_message_id TEXT, todos TEXT);
CREATE TABLE files (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, path TEXT NOT NULL, content TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE messages (
    id TEXT PRIMARY KEY, session_id TEXT NOT NULL, role TEXT NOT NULL, parts TEXT NOT NULL default '[]',
    model TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, finished_at INTEGER,
    provider TEXT, is_summary_message INTEGER DEFAULT 0 NOT NULL);
"""
OLD_SCHEMA = SCHEMA.replace(", summary_message_id TEXT, todos TEXT", "").replace(
    ",\n    provider TEXT, is_summary_message INTEGER DEFAULT 0 NOT NULL", "")  # the first release (April 2025)


def text(value: str) -> dict:
    return {"type": "text", "data": {"text": value}}


def finish(reason: str, time: int = 0) -> dict:
    return {"type": "finish", "data": {"reason": reason, "time": time}}


def call(call_id: str, name: str, arguments: dict) -> dict:
    return {"type": "tool_call", "data": {"id": call_id, "name": name, "input": json.dumps(arguments),
                                          "type": "function", "finished": True}}


def result(call_id: str, content: str, error: bool = False) -> dict:
    return {"type": "tool_result", "data": {"tool_call_id": call_id, "name": "", "content": content,
                                            "metadata": "", "is_error": error}}


MODEL = "claude-sonnet-4-20250514"
SESSION = "5f1c0a52-3f7e-4a8e-9d55-0b6c2e1d7a10"
AGENT_SESSION = "toolu_01AgentCall"
# (id, session, role, parts, model, created_at, is_summary_message)
ROWS = [
    ("m01", SESSION, "user", [text("add a --verbose flag to cli.py"), finish("stop")], "", 1_754_900_000, 0),
    ("m02", SESSION, "assistant", [{"type": "reasoning", "data": {"thinking": "look first", "signature": ""}},
                                   text("I'll read cli.py first."), call("toolu_01", "view", {"file_path": "cli.py"}),
                                   call("toolu_02", "grep", {"pattern": "argparse"}), finish("tool_use", 1_754_900_004)],
     MODEL, 1_754_900_001, 0),
    ("m03", SESSION, "tool", [result("toolu_01", "import argparse\nparser = argparse.ArgumentParser()")], "",
     1_754_900_004, 0),
    ("m04", SESSION, "tool", [result("toolu_02", "cli.py:1:import argparse")], "", 1_754_900_004, 0),
    ("m05", SESSION, "assistant", [call("toolu_03", "agent", {"prompt": "find the tests of cli.py"}),
                                   finish("tool_use", 1_754_900_009)], MODEL, 1_754_900_005, 0),
    ("m06", SESSION, "tool", [result("toolu_03", "tests/test_cli.py covers parse_args")], "", 1_754_900_020, 0),
    ("m07", SESSION, "assistant", [text("The flag is added."), finish("end_turn", 1_754_900_030)], MODEL,
     1_754_900_021, 0),
    ("m08", SESSION, "assistant", [text("## Current State\n\n- The --verbose flag is in cli.py.\n\n## Files & Changes"
                                        "\n\n- cli.py"), finish("end_turn", 1_754_900_050)], MODEL, 1_754_900_040, 1),
    ("m09", SESSION, "user", [text("The previous session was interrupted because it got too long, the initial user "
                                   "request was: `print the options to stderr`"), finish("stop")], "",
     1_754_900_051, 0),
    ("m10", SESSION, "assistant", [text("Done: the options go to stderr."), finish("end_turn", 1_754_900_060)], MODEL,
     1_754_900_052, 0),
    ("a01", AGENT_SESSION, "user", [text("find the tests of cli.py"), finish("stop")], "", 1_754_900_006, 0),
    ("a02", AGENT_SESSION, "assistant", [text("tests/test_cli.py covers parse_args"), finish("end_turn", 1_754_900_019)],
     "claude-3-5-haiku-20241022", 1_754_900_007, 0),
]
# (id, parent, title, prompt_tokens, completion_tokens, cost, summary_message_id, created_at)
SESSIONS = [
    (SESSION, None, "Verbose flag for the CLI", 9_812, 64, 0.184_215, "m08", 1_754_900_000),
    (AGENT_SESSION, SESSION, "New Agent Session", 4_120, 38, 0.006_3, None, 1_754_900_006),
    ("e0e0e0e0-empty", None, "Untitled Session", 0, 0, 0.0, None, 1_754_900_100),  # a session never used
]


def build(path: Path, old: bool = False, wal: bool = True) -> Path:
    """The database at `path`; `old`: the first release's columns (no summary_message_id, provider,
    is_summary_message). `wal`: in WAL mode, as Crush opens it, its rows all moved into the file."""
    connection = sqlite3.connect(path)
    connection.executescript(OLD_SCHEMA if old else SCHEMA)
    for session_id, parent, title, prompt, completion, cost, summary, created in SESSIONS:
        if old:
            connection.execute("INSERT INTO sessions VALUES (?,?,?,?,?,?,?,?,?)",
                               (session_id, parent, title, 0, prompt, completion, cost, created, created))
        else:
            connection.execute("INSERT INTO sessions VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                               (session_id, parent, title, 0, prompt, completion, cost, created, created, summary, None))
    for message_id, session_id, role, parts, model, created, summary_flag in ROWS:
        values = [message_id, session_id, role, json.dumps(parts), model, created, created, created]
        if old:
            connection.execute("INSERT INTO messages VALUES (?,?,?,?,?,?,?,?)", values)
        else:
            connection.execute("INSERT INTO messages VALUES (?,?,?,?,?,?,?,?,?,?)",
                               [*values, "anthropic" if model else None, summary_flag])
    connection.commit()
    if wal:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    return path
