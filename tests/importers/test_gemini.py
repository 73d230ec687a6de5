"""Gemini CLI chat recordings and stream-json runs: usage per response, compression points, metadata,
worked out by hand from the case files (written by hand from the layouts of real recordings, Sept 2025
to April 2026, and from gemini-cli's output types for the stream)."""

import json
from pathlib import Path

from compaction.importers import load_conversation
from compaction.model.messages import tool_results, tool_uses

CASES = Path(__file__).parent / "cases" / "valid"


def _load(name: str):
    return load_conversation(CASES / name)


def test_usage_takes_the_cached_tokens_out_of_the_prompt_and_bills_thoughts_as_output():
    usage = _load("gemini_chat_tool_calls.json").usage
    recorded = [u for u in usage if u]
    # g1: prompt 8,365 (0 cached), 40 out + 120 thoughts; g2: 9,937 (8,000 cached), 20 + 15;
    # g3: 10,529 (9,000 cached), 60 + 30; g5: 115,700 (100,000 cached), 9 + 0
    assert [(u["input_tokens"], u["cache_read_input_tokens"], u["output_tokens"], u["model"]) for u in recorded] == [
        (8_365, 0, 160, "gemini-2.5-pro"), (1_937, 8_000, 35, "gemini-2.5-pro"),
        (1_529, 9_000, 90, "gemini-2.5-flash"), (15_700, 100_000, 9, "gemini-2.5-flash")]
    assert all(u["cache_creation_input_tokens"] == 0 for u in recorded)


def test_calls_recorded_after_a_cancel_note_go_back_into_their_response():
    conversation = _load("gemini_chat_tool_calls.json")
    response = conversation.messages[5]
    assert [u["id"] for u in tool_uses(response)] == ["replace_1771837600000_0", "write_file_1771837600000_1"]
    cancelled = tool_results(conversation.messages[6])[1]
    assert cancelled["is_error"] is True and cancelled["content"].startswith("[Operation Cancelled]")
    assert conversation.metadata["calls_recorded_apart"] == 1


def test_notes_and_commands_are_not_sent():
    conversation = _load("gemini_chat_tool_calls.json")
    texts = [b.get("text") for m in conversation.messages if m["role"] == "user" for b in m["content"]]
    assert "/model" not in texts and "Request cancelled." not in texts
    metadata = conversation.metadata
    assert (metadata["info_messages"], metadata["error_messages"], metadata["user_messages_not_sent"]) == (2, 1, 1)


def test_a_compression_note_is_a_compaction_point_with_its_token_counts():
    (boundary,) = _load("gemini_chat_tool_calls.json").metadata["compact_boundaries"]
    assert boundary == {"index": 6, "trigger": "auto", "pre_tokens": 526_049, "post_tokens": 115_614,
                        "summary_recorded": False}


def test_the_newer_percent_note_takes_the_last_recorded_prompt():
    record = {"sessionId": "s", "projectHash": "p", "messages": [
        {"id": "u", "type": "user", "content": "go"},
        {"id": "g", "type": "gemini", "content": "ok", "model": "gemini-2.5-pro",
         "tokens": {"input": 708_391, "output": 10, "cached": 0, "thoughts": 0, "tool": 0, "total": 708_401}},
        {"id": "i", "type": "info", "content": "Context compressed from 68% to 3%."},
        {"id": "u2", "type": "user", "content": "next"}]}
    conversation = load_conversation(json.dumps(record).encode(), name="chat.json")
    assert conversation.metadata["compact_boundaries"] == [
        {"index": 2, "trigger": "auto", "pre_tokens": 708_391, "pre_percent": 68, "post_percent": 3,
         "summary_recorded": False}]


def test_thoughts_become_thinking_blocks_as_gemini_cli_rebuilds_them():
    first = _load("gemini_chat_tool_calls.json").messages[1]["content"][0]
    assert first == {"type": "thinking", "thinking": "**Planning the listing** List the folder, then glob for todo files."}


def test_metadata_names_session_models_and_window():
    metadata = _load("gemini_chat_tool_calls.json").metadata
    assert metadata["session_id"] == "c9da8256-0000-4578-83ac-00000000aa11"
    assert metadata["models"] == ["gemini-2.5-pro", "gemini-2.5-flash"]
    assert metadata["model_context_window"] == 1_048_576
    assert _load("gemini_chat_tool_calls.json").system is None  # recordings do not hold it


def test_json_lines_recording_keeps_the_last_copy_and_follows_rewinds():
    conversation = _load("gemini_chat_lines.jsonl")
    texts = [b["text"] for m in conversation.messages if m["role"] == "user" for b in m["content"] if b["type"] == "text"]
    assert texts == ["read config.yaml", "change it to 9000"]  # "9090" was rewound
    assert conversation.usage[1]["cache_read_input_tokens"] == 11_000  # from the copy written with tokens
    assert len(tool_results(conversation.messages[2])) == 1  # the tool turn written again is the same result
    assert conversation.metadata["rewinds"] == 1


def test_a_json_lines_checkpoint_that_drops_messages_is_reported():
    lines = [{"sessionId": "s", "projectHash": "p"},
             {"id": "a", "type": "user", "content": "old question"},
             {"id": "b", "type": "gemini", "content": "old answer"},
             {"$set": {"messages": [{"id": "c", "type": "user", "content": "<state_snapshot>summary</state_snapshot>"},
                                    {"id": "d", "type": "gemini", "content": "Got it. Thanks for the additional context!"}]}},
             {"id": "e", "type": "user", "content": "new question"}]
    conversation = load_conversation("\n".join(json.dumps(v) for v in lines).encode(), name="session.jsonl")
    assert conversation.messages[0]["content"][0]["text"].startswith("<state_snapshot>")
    assert conversation.metadata["history_replacements"] == 1
    assert [w.kind for w in conversation.warnings] == ["history_replaced"]


def test_a_stream_run_joins_the_text_chunks_and_keeps_the_totals():
    conversation = _load("gemini_stream.jsonl")
    assert conversation.messages[1]["content"][0] == {"type": "text", "text": "I'll search for them."}
    assert conversation.usage == []  # the stream writes the run's totals only
    assert conversation.metadata["stats"]["total_tokens"] == 25_690
    assert conversation.metadata["models"] == ["gemini-2.5-flash"]  # init named the router "auto"
    failed = tool_results(conversation.messages[2])[1]
    assert failed == {"type": "tool_result", "tool_use_id": "glob-1780574402210-1", "is_error": True,
                      "content": "dir_path is outside the workspace"}


def test_two_runs_load_the_first_and_name_the_second():
    conversation = _load("gemini_stream_two_runs.jsonl")
    assert [b["text"] for b in conversation.messages[1]["content"]] == ["4"]
    (warning,) = conversation.warnings
    assert warning.kind == "first_run" and "run-two-0000-0000-0000-00000000dd15" in warning.message


def test_a_cut_off_stream_reads_to_where_it_stops():
    conversation = _load("gemini_stream_cut_off.jsonl")
    kinds = [w.kind for w in conversation.warnings]
    assert "cut_off" in kinds and "waiting_call" in kinds
    assert tool_uses(conversation.messages[-1])[0]["input"] == {"command": "ruff check ."}


def test_a_stream_names_its_model_in_init_only():
    """Issue 37: the model named in a stream-json run's `init` line is the recorded model (stats of the
    older layout name none): its price, its window and its totals' model."""
    from compaction.measures import log_window
    from compaction.replay import replay

    conversation = load_conversation(CASES / "gemini_stream_init_model.jsonl")
    assert conversation.metadata["model"] == "gemini-3-pro-preview"
    assert conversation.metadata["models"] == ["gemini-3-pro-preview"]
    assert conversation.metadata["recorded_totals"]["model"] == "gemini-3-pro-preview"
    assert replay(conversation, keep_histories=False).run_model == "gemini-3-pro-preview"
    assert log_window(conversation.usage, conversation.metadata).tokens == 1_048_576
