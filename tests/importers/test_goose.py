"""Goose's sessions database, read from databases built of hand-written rows in Goose's own schema
(goose/build_db.py), and its older JSONL (cases/valid/goose_legacy_session.jsonl): one call per model
reply, the session's sums as recorded totals, its compaction found where compact_messages leaves it."""

from pathlib import Path

import pytest

from compaction.agents import agent_of
from compaction.importers import load_conversation, load_run
from compaction.importers.runs import runs_in
from compaction.importers.totals import RECORDED_TOTALS
from tests.importers.goose.build_db import CONTINUATION, OTHER, SESSION, build

CASES = Path(__file__).parent / "cases" / "valid"


@pytest.fixture
def database(tmp_path) -> Path:
    return build(tmp_path / "sessions.db")


def test_the_database_lists_each_session_and_loads_the_newest(database):
    keys = runs_in(database)
    assert [(key.line, key.instance) for key in keys] == [(1, SESSION), (2, OTHER)]
    newest = load_conversation(database)
    assert newest.format == "goose" and agent_of("goose").title == "Goose"
    assert newest.metadata["session_id"] == OTHER and newest.warnings[0].kind == "first_run"


def test_a_compacted_session_keeps_its_history_and_marks_the_summary(database):
    conversation = load_run(database, runs_in(database)[0], name="sessions.db")
    assert [message["role"] for message in conversation.messages] == [
        "user", "assistant", "user", "assistant", "user", "assistant", "user", "assistant"]
    summary, notice, copy, reply = conversation.messages[4:]
    assert summary == {"role": "user", "content": "The user ran the tests: two date-parser tests fail."}
    assert notice == {"role": "assistant", "content": [{"type": "text", "text": CONTINUATION}]}
    assert copy == {"role": "user", "content": [{"type": "text", "text": "fix the date parser"}]}
    assert reply == {"role": "assistant", "content": [{"type": "text", "text": "Fixed: the parser now reads ISO dates."}]}
    assert conversation.messages[2]["content"] == [{"type": "tool_result", "tool_use_id": "call_1",
                                                    "content": "2 failed, 40 passed"}]
    facts = conversation.metadata
    assert facts["compact_boundaries"] == [{"index": 4, "trigger": "auto", "pre_tokens": None}]
    assert (facts["calls"], facts["goose_replies"], facts["hidden_copies"]) == (3, 1, 1)
    assert facts[RECORDED_TOTALS] == {"source": "sessions.accumulated_*", "input_tokens": 253_100,
                                      "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
                                      "output_tokens": 1_700, "model": "claude-sonnet-4-5", "cost_usd": 0.7853,
                                      "calls": 3}
    assert facts["model_window_tokens"] == 200_000
    assert {w.kind for w in conversation.warnings} >= {"no_usage", "agent_written", "wal"}


def test_the_older_jsonl_loads_as_goose():
    conversation = load_conversation(CASES / "goose_legacy_session.jsonl")
    assert conversation.format == "goose" and conversation.metadata["calls"] == 2
    lines = (CASES / "goose_legacy_session.jsonl").read_text(encoding="utf-8").splitlines()
    assert sum('"role":"assistant"' in line for line in lines) == conversation.metadata["calls"]  # counted plainly


def test_the_goose_preset_runs_on_the_database(database):
    from compaction import replay

    conversation = load_run(database, runs_in(database)[0], name="sessions.db")
    result = replay(conversation, strategy="goose", keep_histories=False)
    assert result.model_window_tokens == 200_000 and len(result.calls) == 4
