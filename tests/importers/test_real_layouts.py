"""The layouts real agent logs have (shared/REFERENCE.md, section 7), read right: every tool result kept,
one assistant message per model response, tool pairs valid. The case files under cases/valid were
written by hand from the observed layouts, not by the project's generator; the counts below were
worked out by reading them."""

import json
from pathlib import Path

import pytest

from compaction.agents.claude_code.log.pairing import MISSING_RESULT
from compaction.cli.main import main
from compaction.importers import load_conversation
from compaction.model.messages import tool_results
from compaction.model.validity import check_pairs, is_waiting_call

CASES = Path(__file__).parent / "cases" / "valid"

# file: (model responses, tool results, calls still waiting for their result at the end of the log)
SHAPES = {
    # three parallel calls; each result hangs off its own tool_use line; results written as the tools
    # finished (Read, Glob, Grep) and the next response hangs off the last one written
    "claude_code_parallel_results_own_parents.jsonl": (2, 3, 0),
    # the same shape with the next response hanging off the first result
    "claude_code_parallel_next_off_first_result.jsonl": (2, 3, 0),
    # tools run while the response streams: its second call hangs off the first call's result
    "claude_code_eager_tool_execution.jsonl": (3, 2, 1),
    # no message.id nor requestId: consecutive assistant lines are one response
    "claude_code_response_split_without_ids.jsonl": (3, 3, 0),
    # a second root repeating the first prompt: the later run is the session
    "claude_code_restart_repeats_first_prompt.jsonl": (2, 1, 0),
    "claude_code_comment_lines_on_top.jsonl": (1, 0, 0),
    # a log still being written: its last line (a tool result) is cut off
    "claude_code_cut_off_last_line.jsonl": (1, 0, 1),
    # a result (a third-party model's `call_` id) whose call's line was never written: its progress and
    # result lines hang off the missing line; the result is left out, as Claude Code drops it
    "claude_code_call_line_missing.jsonl": (2, 1, 0),
    # a call whose result line is not in the file, a compaction right after it: an error result stands in
    "claude_code_result_missing_before_compaction.jsonl": (2, 1, 0),
    # a resumed session: calls never answered (the last line of a response, then a response of its own),
    # the next prompt hanging off the line before each: both call lines are left out
    "claude_code_call_dropped_on_resume.jsonl": (3, 1, 0),
    # SWE-agent: tool_call_ids lists, an id reused by a later call, trajectory copies not read
    "swe_agent_tool_call_ids.traj": (3, 3, 0),
    # OpenHands: two parallel calls written action, observation, action, observation; a think call
    # (its observation is a result too); a finish call left waiting
    "openhands_events.json": (4, 4, 1),
    # Codex 0.117: three parallel calls, their token_count written after the calls and again after the
    # outputs (one call), the outputs in call order; then the final answer
    "codex_parallel_calls.jsonl": (2, 3, 0),
    # Codex 0.55: token_count before each response's items and repeated after its output; a custom tool
    # call (apply_patch); an interrupted call answered `aborted`; an interrupted reasoning-only response
    "codex_duplicated_token_count.jsonl": (5, 3, 0),
    # Codex 0.118: web searches inside one response (no output items); the log stops after a call
    "codex_web_search_waiting_call.jsonl": (2, 0, 1),
    # Codex 0.118 mid-turn compaction: compacted (replacement history) + context_compacted
    "codex_compaction.jsonl": (3, 2, 0),
    # an older local compaction: compacted with the summary only
    "codex_compaction_summary_only.jsonl": (2, 0, 0),
    # the August 2025 layout: bare header and items, state lines, two parallel calls
    "codex_legacy_2025.jsonl": (2, 2, 0),
    # Gemini chat recording: two parallel calls with results; a call recorded apart after
    # "Request cancelled." (it belongs to the response before); notes and a command not sent
    "gemini_chat_tool_calls.json": (4, 4, 0),
    # Gemini JSON-lines recording: a message rewritten with its tokens and calls, the tool turn written
    # again as a user message, a rewind; it stops while a call runs
    "gemini_chat_lines.jsonl": (3, 1, 1),
    # Gemini stream-json: text in chunks, two parallel calls (one failing), a harness's fields on each line
    "gemini_stream.jsonl": (2, 2, 0),
    "gemini_stream_two_runs.jsonl": (1, 0, 0),
    # a stream cut off after a call
    "gemini_stream_cut_off.jsonl": (2, 1, 1),
    # a stream whose init names a router ("auto-gemini-2.5") and whose stats split two models
    "gemini_stream_stats.jsonl": (3, 2, 0),
    # SWE-agent 1.1: replay_config names the model, model_stats the run's totals
    "swe_agent_model_stats.traj": (4, 4, 0),
    # an OpenHands evaluation output of three runs (its first loaded): token_usages per response, a
    # finish call left waiting
    "openhands_output_metrics.jsonl": (2, 1, 1),
}


@pytest.mark.parametrize("name", SHAPES)
def test_every_result_kept_one_message_per_response_and_pairs_valid(name):
    responses, results, waiting = SHAPES[name]
    conversation = load_conversation(CASES / name)
    messages = conversation.messages
    assert sum(1 for m in messages if m["role"] == "assistant") == responses
    assert sum(len(tool_results(m)) for m in messages) == results
    problems = check_pairs(messages)
    assert all(is_waiting_call(p, len(messages)) for p in problems)
    assert len(problems) == waiting
    kinds = [w.kind for w in conversation.warnings]
    assert kinds.count("waiting_call") == waiting


@pytest.mark.parametrize("name", SHAPES)
def test_the_command_line_says_the_pairs_are_intact_and_replays_one_call_per_response(name, capsys):
    assert main(["run", str(CASES / name)]) == 0
    last_line = capsys.readouterr().out.strip().splitlines()[-1]
    assert last_line.startswith("tool pairs intact")
    assert ("still waits for its result" in last_line) == bool(SHAPES[name][2])
    assert main(["replay", str(CASES / name), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert len(replayed["calls"]) == SHAPES[name][0]


def test_parallel_results_come_in_call_order_whatever_order_they_were_written():
    messages = load_conversation(CASES / "claude_code_parallel_results_own_parents.jsonl").messages
    calls = [b["id"] for b in messages[1]["content"] if b["type"] == "tool_use"]
    assert calls == ["toolu_G", "toolu_R", "toolu_L"]
    assert [b["tool_use_id"] for b in tool_results(messages[2])] == calls  # written R, L, G


def test_usage_is_the_last_line_of_each_response():
    # earlier lines carry a placeholder output count; the last line of the response has the final one,
    # and its model and its split of the cache writes by lifetime (the second response has no split)
    usage = load_conversation(CASES / "claude_code_parallel_results_own_parents.jsonl").usage
    # the first response's log splits its cache write by lifetime (all 5-minute); the second's does not
    assert usage == [None, {"input_tokens": 3, "cache_creation_input_tokens": 2210, "cache_read_input_tokens": 17850,
                            "output_tokens": 141, "cache_write_5m_tokens": 2210, "cache_write_1h_tokens": 0,
                            "model": "claude-opus-4-6"},
                     None, {"input_tokens": 1, "cache_creation_input_tokens": 455, "cache_read_input_tokens": 20060,
                            "output_tokens": 31, "model": "claude-opus-4-6"}]


def test_a_file_of_notes_only_is_still_an_error():
    from compaction.errors import ConversationError

    with pytest.raises(ConversationError, match="not valid JSON"):
        load_conversation(b"// a copied log\n// nothing else\n", name="notes.jsonl")


def _warnings(conversation, kind):
    return [w for w in conversation.warnings if w.kind == kind]


def test_a_result_whose_call_line_is_not_in_the_file_is_left_out_and_said():
    conversation = load_conversation(CASES / "claude_code_call_line_missing.jsonl")
    [warning] = _warnings(conversation, "result_without_call")
    assert warning.line == 8 and "'call_9d0e4f1a2b3c4d5e6f708192'" in warning.message
    assert "the line of its call is not in the file" in warning.message
    assert [b["tool_use_id"] for m in conversation.messages for b in tool_results(m)] == ["toolu_01Run"]


def test_a_call_left_without_result_by_a_compaction_gets_claude_codes_error_result():
    conversation = load_conversation(CASES / "claude_code_result_missing_before_compaction.jsonl")
    assert conversation.messages[2] == {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_01Write", "content": MISSING_RESULT, "is_error": True}]}
    assert MISSING_RESULT == "[Tool result missing due to internal error]"  # Claude Code's own text
    [warning] = _warnings(conversation, "result_missing")
    assert warning.line == 3 and "(line 6)" in warning.message
    assert conversation.metadata["compact_boundaries"][0]["index"] == 3  # the summary still starts afresh


def test_calls_dropped_on_resume_are_left_out_and_their_response_keeps_its_final_usage():
    conversation = load_conversation(CASES / "claude_code_call_dropped_on_resume.jsonl")
    [warning] = conversation.warnings
    assert (warning.kind, warning.line) == ("dropped_call", 4) and warning.message.startswith("2 line(s)")
    assert conversation.metadata["branch_lines_skipped"] == 2
    assert [b["type"] for b in conversation.messages[1]["content"]] == ["thinking", "text"]
    assert conversation.usage[1]["output_tokens"] == 240  # written on the dropped call's line


def _line(uuid, parent, role, content, message_id=None):
    message = {"role": role, "content": content} | ({"id": message_id} if message_id else {})
    return json.dumps({"parentUuid": parent, "isSidechain": False, "type": role, "uuid": uuid,
                       "timestamp": "2026-03-01T10:00:00Z", "message": message})


def test_a_call_never_answered_before_the_next_prompt_is_answered_in_that_turn_in_call_order():
    use = [{"type": "tool_use", "id": f"toolu_{n}", "name": "Read", "input": {}} for n in (1, 2)]
    lines = [_line("u1", None, "user", "Read both."), _line("a1", "u1", "assistant", use[:1], "msg_1"),
             _line("a2", "a1", "assistant", use[1:], "msg_1"),
             _line("r2", "a2", "user", [{"type": "tool_result", "tool_use_id": "toolu_2", "content": "two"}]),
             _line("u2", "r2", "user", "Stop, read only the second."),
             _line("a3", "u2", "assistant", [{"type": "text", "text": "Done."}], "msg_2")]
    conversation = load_conversation("\n".join(lines).encode(), name="s.jsonl")
    assert [(b.get("tool_use_id"), b.get("is_error")) for b in conversation.messages[2]["content"]] == [
        ("toolu_1", True), ("toolu_2", None), (None, None)]
    assert not conversation.pair_problems
    assert [w.kind for w in conversation.warnings] == ["result_missing"]
