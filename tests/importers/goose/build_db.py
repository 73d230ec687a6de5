"""Goose sessions databases for the tests, built from rows written by hand: the schema is Goose's own
(block/goose crates/goose/src/session/session_manager.rs `create`, then migrations.rs 2-13), the rows
follow the layout Goose writes (content_json a list of typed parts, metadata_json the visibility, a
compaction as compact_messages leaves it)."""

import json
import sqlite3
from pathlib import Path

SCHEMA = """
CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
    user_set_name BOOLEAN DEFAULT FALSE, session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL,
    created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    extension_data TEXT DEFAULT '{}', total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER,
    accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER,
    schedule_id TEXT, recipe_json TEXT, user_recipe_values_json TEXT,
    provider_name TEXT, model_config_json TEXT, goose_mode TEXT NOT NULL DEFAULT 'auto', thread_id TEXT,
    archived_at TIMESTAMP, project_id TEXT, accumulated_cost REAL);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL,
    content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL, timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    tokens INTEGER, metadata_json TEXT, message_id TEXT);
"""
BOTH = {"userVisible": True, "agentVisible": True}
PERSON_ONLY = {"userVisible": True, "agentVisible": False}  # compacted away
MODEL_ONLY = {"userVisible": False, "agentVisible": True}  # the summary and Goose's notice
NEITHER = {"userVisible": False, "agentVisible": False}  # the newest message, copied after the summary
CONTINUATION = ("Your context was compacted. The previous message contains a summary of the conversation so far.\n"
                "Do not mention that you read a summary or that conversation summarization occurred.\n"
                "Just continue the conversation naturally based on the summarized context.")


def text(value: str) -> dict:
    return {"type": "text", "text": value}


def request(call_id: str, command: str) -> dict:
    return {"type": "toolRequest", "id": call_id,
            "toolCall": {"status": "success", "value": {"name": "developer__shell", "arguments": {"command": command}}}}


def response(call_id: str, output: str) -> dict:
    return {"type": "toolResponse", "id": call_id,
            "toolResult": {"status": "success", "value": {"content": [text(output)], "isError": False}}}


SESSION, OTHER = "20260301_1", "20260301_2"
MODEL = {"model_name": "claude-sonnet-4-5", "context_limit": 200_000, "temperature": None}
# (session, role, content, created, visibility)
ROWS = [
    (SESSION, "user", [text("run the tests")], 1_772_355_600, PERSON_ONLY),
    (SESSION, "assistant", [request("call_1", "pytest -q")], 1_772_355_601, PERSON_ONLY),
    (SESSION, "user", [response("call_1", "2 failed, 40 passed")], 1_772_355_630, PERSON_ONLY),
    (SESSION, "assistant", [text("Two tests fail on the date parser.")], 1_772_355_640, PERSON_ONLY),
    (SESSION, "user", [text("fix the date parser")], 1_772_356_000, NEITHER),
    (SESSION, "user", [text("The user ran the tests: two date-parser tests fail.")], 1_772_356_010, MODEL_ONLY),
    (SESSION, "assistant", [text(CONTINUATION)], 1_772_356_010, MODEL_ONLY),
    (SESSION, "user", [text("fix the date parser")], 1_772_356_010, BOTH),
    (SESSION, "assistant", [{"type": "thinking", "thinking": "strptime", "signature": "s"},
                            text("Fixed: the parser now reads ISO dates.")], 1_772_356_050, BOTH),
    (OTHER, "user", [text("what does make lint run?")], 1_772_360_000, BOTH),
    (OTHER, "assistant", [text("ruff and mypy.")], 1_772_360_005, BOTH),
]
# (id, name, created_at, newest call's total/input/output, accumulated total/input/output, cost)
SESSIONS = [
    (SESSION, "Date parser", "2026-03-01 09:00:00", (61_200, 60_950, 250), (254_800, 253_100, 1_700), 0.7853),
    (OTHER, "Lint", "2026-03-01 10:20:00", (5_010, 4_990, 20), (5_010, 4_990, 20), None),
]


def build(path: Path) -> Path:
    connection = sqlite3.connect(path)
    connection.executescript(SCHEMA)
    connection.execute("INSERT INTO schema_version (version) VALUES (13)")
    for session_id, name, created, last, accumulated, cost in SESSIONS:
        connection.execute(
            "INSERT INTO sessions (id, name, working_dir, created_at, total_tokens, input_tokens, output_tokens, "
            "accumulated_total_tokens, accumulated_input_tokens, accumulated_output_tokens, accumulated_cost, "
            "provider_name, model_config_json) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (session_id, name, "/home/dev/app", created, *last, *accumulated, cost, "anthropic", json.dumps(MODEL)))
    for number, (session_id, role, content, created, visibility) in enumerate(ROWS, start=1):
        connection.execute("INSERT INTO messages (session_id, role, content_json, created_timestamp, metadata_json, "
                           "message_id) VALUES (?,?,?,?,?,?)", (session_id, role, json.dumps(content), created,
                                                                json.dumps(visibility), f"msg_{number}"))
    connection.commit()
    connection.execute("PRAGMA journal_mode=WAL")
    connection.close()
    return path
