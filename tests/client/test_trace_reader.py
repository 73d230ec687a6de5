"""The trace read back (the compaction-trace format): detected among the formats, the session as the agent
held it with the usage of each call at its response, and bad traces named by line, never a traceback."""

import json

import pytest

from compaction.errors import ConversationError
from compaction.importers import load_conversation
from compaction.importers.trace import read_trace

HEADER = {"type": "compaction-trace", "version": 1, "strategy": "pipeline", "params": {}, "settings": {}}
USER = {"role": "user", "content": "Read a.py."}
CALL_USE = {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "a.py"}}
RESULT = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "print(1)"}]}


def call(number: int, new: list, sent: list, response: dict, input_tokens: int, **extra) -> dict:
    return {"type": "call", "call": number, "new_messages": new, "sent": sent, "acted": [], "summaries": 0,
            "response": response, "model": "claude-fake",
            "usage": {"input_tokens": input_tokens, "output_tokens": 4}, **extra}


def write(tmp_path, *lines) -> str:
    path = tmp_path / "trace.jsonl"
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return path


def two_calls() -> list:
    first = {"role": "assistant", "content": [CALL_USE]}
    last = {"role": "assistant", "content": [{"type": "text", "text": "Done."}]}
    return [HEADER, call(0, [USER], [0], first, 120, system="Be brief."),
            call(1, [first, RESULT], [0, 1, 2], last, 180, summaries=1, acted=["L4"], before_tokens=170)]


def test_the_session_is_the_conversation_with_each_calls_usage_at_its_response(tmp_path):
    session = load_conversation(write(tmp_path, *two_calls()))
    assert session.format == "compaction-trace"
    assert [m["role"] for m in session.messages] == ["user", "assistant", "user", "assistant"]
    assert [u and u["input_tokens"] for u in session.usage] == [None, 120, None, 180]
    assert session.system == "Be brief."
    assert session.metadata["trace_strategy"] == "pipeline" and session.metadata["trace_calls"] == 2
    assert session.metadata["compact_boundaries"] == [{"index": 3, "trigger": "client", "pre_tokens": 170,
                                                       "acted": ["L4"]}]


def test_each_calls_sent_messages_are_rebuilt(tmp_path):
    lines = two_calls()
    made = {"role": "user", "content": "[Compacted]\n\nsummary"}
    lines[2]["sent"] = [made, 2]
    trace = read_trace(write(tmp_path, *lines))
    assert trace.calls[0].sent == [USER]
    assert trace.calls[1].sent == [made, RESULT]
    assert trace.calls[1].acted == ("L4",) and trace.calls[1].usage["input_tokens"] == 180


def test_a_response_the_caller_did_not_pass_back_is_said(tmp_path):
    lines = two_calls()
    lines[2]["new_messages"] = [{"role": "user", "content": "Never mind; do b.py."}]
    lines[2]["sent"] = [0, 1]
    session = load_conversation(write(tmp_path, *lines))
    assert "response_not_passed_back" in [w.kind for w in session.warnings]
    assert [u and u["input_tokens"] for u in session.usage] == [None, None, 180]


def test_a_cut_off_last_line_is_skipped_and_the_calls_before_it_kept(tmp_path):
    text = json.dumps(two_calls()[2])
    session = load_conversation(write(tmp_path, *two_calls()[:2], text[: len(text) // 2]))
    assert len(session.messages) == 2 and "the last line is cut off" in str(session.warnings[0])


@pytest.mark.parametrize("lines, words", [
    ([HEADER], "the trace has no call"),
    ([{**HEADER, "version": 9}, call(0, [USER], [0], USER, 1)], "line 1: trace version 9 is not one this lab reads"),
    ([HEADER, {**call(0, [USER], [0], USER, 1), "new_messages": "hi"}], "line 2: a call line must have 'new_messages'"),
    ([HEADER, call(0, [USER], [4], USER, 1)], "line 2: sent[0] names message 4, which the trace has not given yet"),
    ([HEADER, call(0, [{"role": "system", "content": "x"}], [0], USER, 1)], "role must be 'user' or 'assistant'"),
])
def test_a_bad_trace_is_named_by_line(tmp_path, lines, words):
    with pytest.raises(ConversationError, match=words.replace("[", r"\[").replace("]", r"\]")):
        load_conversation(write(tmp_path, *lines), format="compaction-trace")


def test_another_log_is_not_taken_for_a_trace(tmp_path):
    path = tmp_path / "other.jsonl"
    path.write_text(json.dumps(USER) + "\n" + json.dumps({"role": "assistant", "content": "ok"}) + "\n")
    assert load_conversation(path).format == "anthropic"
    with pytest.raises(ConversationError, match="not a Compaction Lab trace"):
        load_conversation(path, format="compaction-trace")
