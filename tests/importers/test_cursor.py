"""Cursor's agent transcripts, read from the hand-written case (cases/valid/cursor_agent_transcript.jsonl,
written from the layout of real transcripts): a warning that nothing is recorded, one call per assistant
line, the calls' ids given in order, and no preset of Cursor's own."""

import json
from pathlib import Path

import pytest

from compaction import replay
from compaction.agents import agent, agent_of
from compaction.errors import ConversationError
from compaction.importers import load_conversation

CASE = Path(__file__).parent / "cases" / "valid" / "cursor_agent_transcript.jsonl"


def test_a_transcript_loads_as_cursor_and_says_it_records_no_usage():
    conversation = load_conversation(CASE)
    assert conversation.format == "cursor" and agent_of("cursor").title == "Cursor"
    assert conversation.warnings[0].kind == "no_usage" and not conversation.has_usage
    plain = sum(json.loads(line).get("role") == "assistant" for line in CASE.read_text(encoding="utf-8").splitlines())
    assert conversation.metadata["calls"] == plain == 4
    assert sum(message["role"] == "assistant" for message in conversation.messages) == plain


def test_cursor_has_no_preset_and_any_strategy_replays_it_estimated():
    assert agent("cursor").own_preset is None and agent("cursor").presets == ()
    result = replay(load_conversation(CASE), strategy="summary_keep_last")
    assert len(result.calls) == 4 and not any(call.exact for call in result.calls)  # every figure estimated


def test_a_line_without_a_message_is_said():
    with pytest.raises(ConversationError, match="without a user or assistant line"):
        load_conversation(b'{"role":"system","message":{"content":"x"}}\n{"type":"turn_ended"}\n', name="t.jsonl")
