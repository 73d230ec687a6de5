"""Crush's database, read from databases built of hand-written rows in Crush's own schema (crush/build_db.py):
each session its own conversation, one call per assistant row, the session row's cost as the recorded
total, its summary as the compaction point, and a corpus that lists each session."""

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from compaction.agents import agent_of
from compaction.corpus import discover
from compaction.errors import ConversationError
from compaction.importers import load_conversation, load_run
from compaction.importers.runs import runs_in
from compaction.importers.totals import RECORDED_TOTALS
from tests.importers.crush.build_db import AGENT_SESSION, SESSION, build

SUMMARY = "## Current State\n\n- The --verbose flag is in cli.py.\n\n## Files & Changes\n\n- cli.py"
INTERRUPTED = ("The previous session was interrupted because it got too long, the initial user request was: "
               "`print the options to stderr`")


@pytest.fixture
def database(tmp_path) -> Path:
    folder = tmp_path / "project" / ".crush"
    folder.mkdir(parents=True)
    return build(folder / "crush.db")


def test_a_database_loads_its_first_session_as_crush(database):
    conversation = load_conversation(database)
    assert conversation.format == "crush" and agent_of("crush").title == "Crush"
    assert conversation.messages == [
        {"role": "user", "content": [{"type": "text", "text": "add a --verbose flag to cli.py"}]},
        {"role": "assistant", "content": [
            {"type": "text", "text": "I'll read cli.py first."},
            {"type": "tool_use", "id": "toolu_01", "name": "view", "input": {"file_path": "cli.py"}},
            {"type": "tool_use", "id": "toolu_02", "name": "grep", "input": {"pattern": "argparse"}}]},
        {"role": "user", "content": [  # Crush's two tool rows: one turn
            {"type": "tool_result", "tool_use_id": "toolu_01",
             "content": "import argparse\nparser = argparse.ArgumentParser()"},
            {"type": "tool_result", "tool_use_id": "toolu_02", "content": "cli.py:1:import argparse"}]},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_03", "name": "agent", "input": {"prompt": "find the tests of cli.py"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_03",
                                      "content": "tests/test_cli.py covers parse_args"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "The flag is added."}]},
        {"role": "user", "content": SUMMARY},  # sent as the person's message, as Crush does
        {"role": "user", "content": [{"type": "text", "text": INTERRUPTED}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Done: the options go to stderr."}]},
    ]
    facts = conversation.metadata
    assert (facts["session_id"], facts["calls"], facts["summary_calls"], facts["reasoning_parts"]) == (SESSION, 4, 1, 1)
    assert facts["compact_boundaries"] == [{"index": 6, "trigger": "auto", "pre_tokens": None, "message_id": "m08"}]
    assert facts["compact_summary_indices"] == [6]
    assert facts[RECORDED_TOTALS] == {"source": "sessions.cost", "model": "claude-sonnet-4-20250514",
                                      "cost_usd": 0.184215, "calls": 4}
    assert facts["last_call"] == {"prompt_tokens": 9_812, "completion_tokens": 64}
    assert conversation.usage == [] and conversation.timestamps[0] == "2025-08-11T08:13:20Z"
    assert [w.kind for w in conversation.warnings] == ["first_run", "no_usage", "wal"]
    assert str(conversation.warnings[0]) == ("the database holds 2 sessions; the first (Verbose flag for the CLI) is "
                                             "loaded; a corpus of the file, or its session picker, reads each")


def test_bytes_load_as_the_path_does(database):
    from_path, from_bytes = load_conversation(database), load_conversation(database.read_bytes(), name="crush.db")
    assert (from_bytes.messages, from_bytes.metadata) == (from_path.messages, from_path.metadata)
    assert database.read_bytes()[:16] == b"SQLite format 3\x00"  # the file itself is never written


def test_each_session_is_a_run_of_the_file_and_a_row_of_the_corpus(database):
    keys = runs_in(database)
    assert [(key.line, key.instance) for key in keys] == [(1, SESSION), (2, AGENT_SESSION)]  # the empty one: none
    agent = load_run(database, keys[1], name="crush.db")
    assert agent.metadata["parent_session_id"] == SESSION and agent.metadata["calls"] == 1
    assert agent.metadata["models"] == ["claude-3-5-haiku-20241022"]
    assert agent.messages[-1] == {"role": "assistant",
                                  "content": [{"type": "text", "text": "tests/test_cli.py covers parse_args"}]}
    found = discover(database.parents[1])
    assert [(item.relative, item.run.instance if item.run else None) for item in found] == [
        (".crush/crush.db", SESSION), (".crush/crush.db", AGENT_SESSION)]


def test_the_first_release_marks_no_summary_and_every_reply_is_a_call(tmp_path):
    conversation = load_conversation(build(tmp_path / "crush.db", old=True, wal=False))
    assert conversation.metadata["compact_boundaries"] == [] and conversation.metadata["calls"] == 5
    assert [w.kind for w in conversation.warnings][:2] == ["first_run", "no_usage"]


def test_a_session_gone_since_it_was_listed_is_said(database):
    keys = runs_in(database)
    with closing(sqlite3.connect(database)) as connection, connection:  # Crush deleted the session since
        connection.execute("DELETE FROM messages WHERE session_id = ?", (SESSION,))
    with pytest.raises(ConversationError, match="no session .* with messages any more"):
        load_run(database, keys[0], name="crush.db")


def test_another_sqlite_file_is_not_taken_for_crush(tmp_path):
    path = tmp_path / "notes.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE notes (id TEXT, body TEXT)")
    with pytest.raises(ConversationError, match="this is not a text log"):
        load_conversation(path)
    assert runs_in(path) == ()
