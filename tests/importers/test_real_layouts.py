"""The layouts real agent logs have (shared/REFERENCE.md, section 7), read right: every tool result kept,
one assistant message per model response, tool pairs valid. The case files under cases/valid were
written by hand from the observed layouts, not by the project's generator; the counts below were
worked out by reading them."""

import json
from pathlib import Path

import pytest

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
