"""Codex CLI rollouts: usage per response, compaction points, metadata and system prompt, worked out by
hand from the case files (written by hand from the layouts of real rollouts, cli 0.34 to 0.118)."""

import json
from pathlib import Path

from compaction.importers import load_conversation
from compaction.model.messages import tool_results, tool_uses

CASES = Path(__file__).parent / "cases" / "valid"


def _load(name: str):
    return load_conversation(CASES / name)


def _line(kind: str, payload: dict) -> str:
    return json.dumps({"timestamp": "2026-04-01T00:00:00.000Z", "type": kind, "payload": payload})


def _tokens(total_input: int, last_input: int, cached: int, output: int) -> str:
    last = {"input_tokens": last_input, "cached_input_tokens": cached, "output_tokens": output,
            "total_tokens": last_input + output}
    return _line("event_msg", {"type": "token_count", "info": {
        "total_token_usage": {"input_tokens": total_input, "total_tokens": total_input + output},
        "last_token_usage": last, "model_context_window": 258400}})


def test_usage_is_one_per_response_with_the_cached_input_taken_out():
    # response 1: input 23,829 of which 2,432 cached; written after the calls and again after the outputs
    # response 2: input 24,348 of which 24,000 cached
    usage = _load("codex_parallel_calls.jsonl").usage
    assert usage == [None, {"input_tokens": 21_397, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 2_432,
                            "output_tokens": 386, "model": "gpt-5.4"},
                     None, {"input_tokens": 348, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 24_000,
                            "output_tokens": 45, "model": "gpt-5.4"}]


def test_a_token_count_written_twice_counts_once_and_an_interrupted_response_has_none():
    conversation = _load("codex_duplicated_token_count.jsonl")
    assistant = [i for i, m in enumerate(conversation.messages) if m["role"] == "assistant"]
    recorded = [conversation.usage[i] for i in assistant]
    # four distinct calls (5,455 / 5,699 / 5,852 / 6,294 input), each written twice but the last; the
    # reasoning-only response at message 7 was interrupted before its usage was written
    assert [u and u["cache_read_input_tokens"] + u["input_tokens"] for u in recorded] == [5_455, 5_699, 5_852, None,
                                                                                          6_294]
    metadata = conversation.metadata
    assert (metadata["token_counts"], metadata["token_counts_repeated"], metadata["responses_without_usage"]) == (4, 3, 1)


def test_an_interrupted_call_is_answered_aborted_as_codex_does():
    conversation = _load("codex_duplicated_token_count.jsonl")
    answer = tool_results(conversation.messages[6])
    assert answer == [{"type": "tool_result", "tool_use_id": "call_test", "content": "aborted"}]
    assert [w.kind for w in conversation.warnings] == ["aborted_call"]


def test_parallel_outputs_come_in_call_order_whatever_order_they_were_written():
    lines = [_line("session_meta", {"id": "s", "cli_version": "0.118.0"}),
             _line("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text",
                                                                                       "text": "go"}]})]
    lines += [_line("response_item", {"type": "function_call", "name": "shell", "arguments": "{}", "call_id": c})
              for c in ("c1", "c2", "c3")]
    lines += [_line("response_item", {"type": "function_call_output", "call_id": c, "output": c})
              for c in ("c3", "c1", "c2")]
    messages = load_conversation("\n".join(lines).encode(), name="rollout.jsonl").messages
    assert [b["tool_use_id"] for b in tool_results(messages[2])] == ["c1", "c2", "c3"]


def test_the_mid_turn_compaction_point_and_what_codex_sent_after_it():
    conversation = _load("codex_compaction.jsonl")
    (boundary,) = conversation.metadata["compact_boundaries"]
    # the last response before it: 231,922 input + 649 output; compacted and context_compacted are one point
    assert boundary == {"index": 5, "trigger": "auto", "pre_tokens": 232_571, "position": "mid_turn", "line": 16,
                        "replacement_items": 5, "new_start": True, "kept_user_messages": 2,
                        "kept_assistant_messages": 1, "encrypted_summary_chars": 24}
    new_start = conversation.messages[5]
    assert new_start["role"] == "user"
    assert [b["text"] for b in new_start["content"]][:2] == ["clean the inbox folder", "Listing the inbox."]
    assert new_start["content"][-1]["text"].startswith("[Codex compaction summary, encrypted by the server")
    assert conversation.metadata["compact_summary_indices"] == [5]
    # the zero usage written after the compaction is not a call; the first call after it carried 41,588
    assert conversation.usage[6]["input_tokens"] + conversation.usage[6]["cache_read_input_tokens"] == 41_588


def test_a_compaction_with_the_summary_only_is_rebuilt_with_the_recent_user_messages():
    conversation = _load("codex_compaction_summary_only.jsonl")
    (boundary,) = conversation.metadata["compact_boundaries"]
    assert (boundary["index"], boundary["pre_tokens"], boundary["rebuilt"], boundary["kept_user_messages"]) == (
        3, 244_900, True, 2)
    texts = [b["text"] for b in conversation.messages[3]["content"]]
    assert texts[:2] == ["fix the login bug", "now add a test"]  # the environment context is not a user message
    assert texts[2].startswith("Another language model started to solve this problem")


def test_metadata_names_the_version_models_and_window():
    metadata = _load("codex_parallel_calls.jsonl").metadata
    assert (metadata["agent_version"], metadata["models"], metadata["model_context_window"]) == (
        "0.117.0", ["gpt-5.4"], 258_400)
    assert metadata["injected_context"] == [{"index": 0, "block": 0, "kind": "agents_md"},
                                            {"index": 0, "block": 1, "kind": "environment_context"}]
    assert _load("codex_compaction_summary_only.jsonl").metadata["model_context_window"] == 272_000


def test_the_system_prompt_is_the_base_instructions_and_the_developer_messages():
    conversation = _load("codex_parallel_calls.jsonl")
    assert conversation.system == ("You are Codex, a coding agent. Be concise.\n\n<permissions instructions>\n"
                                   "sandbox_mode is workspace-write.\n</permissions instructions>")
    assert _load("codex_legacy_2025.jsonl").system == "Follow the repository's AGENTS.md."


def test_the_2025_layout_has_no_usage_and_says_so():
    conversation = _load("codex_legacy_2025.jsonl")
    assert conversation.format == "codex" and conversation.usage == []
    assert conversation.metadata["layout"] == "legacy-2025"
    assert conversation.metadata["state_lines"] == 4


def test_web_searches_stay_in_their_response_as_server_tool_uses():
    conversation = _load("codex_web_search_waiting_call.jsonl")
    first = conversation.messages[1]["content"]
    assert [b["type"] for b in first] == ["text", "server_tool_use", "server_tool_use", "text"]
    assert not tool_uses(conversation.messages[1])  # nothing for the pair check to wait for


def test_a_custom_tool_call_keeps_its_free_form_input():
    messages = _load("codex_duplicated_token_count.jsonl").messages
    (call,) = tool_uses(messages[3])
    assert call["name"] == "apply_patch" and call["input"]["input"].startswith("*** Begin Patch")


def test_the_format_can_be_named_and_is_found_without_it():
    data = (CASES / "codex_parallel_calls.jsonl").read_bytes()
    assert load_conversation(data, name="r.jsonl").format == "codex"
    assert load_conversation(data, format="codex", name="r.jsonl").format == "codex"


def _person_compacts(context: int) -> list[str]:
    """A turn answered at `context` tokens, then a compaction between turns (the person's next message after
    it), as the 0.64-0.105 rollouts write it: `compacted` with its replacement history, `context_compacted`."""
    said = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "tidy the module"}]}
    return [_line("session_meta", {"id": "s", "cli_version": "0.64.0"}), _line("response_item", said),
            _line("response_item", {"type": "message", "role": "assistant",
                                    "content": [{"type": "output_text", "text": "Tidied."}]}),
            _tokens(context, context, context - 2_000, 300),
            _line("compacted", {"message": "", "replacement_history": [said]}),
            _line("event_msg", {"type": "context_compacted"}),
            _line("response_item", {"type": "message", "role": "user",
                                    "content": [{"type": "input_text", "text": "now the tests"}]})]


def test_a_compaction_between_turns_well_under_the_limit_is_the_persons():
    # Codex compacts by itself at 90 % of the window; between turns at 30 % it was the person's /compact
    lines = _person_compacts(77_000)
    (boundary,) = load_conversation("\n".join(lines).encode(), name="rollout.jsonl").metadata["compact_boundaries"]
    assert (boundary["position"], boundary["trigger"]) == ("between_turns", "manual")
    (boundary,) = load_conversation("\n".join(_person_compacts(240_000)).encode(),
                                    name="rollout.jsonl").metadata["compact_boundaries"]
    assert (boundary["position"], boundary["trigger"]) == ("between_turns", "auto")
