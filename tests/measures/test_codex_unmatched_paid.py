"""A Codex token_count with no response of its own (the turn aborted before its items were written, the
layout of a real 2025-10 rollout): paid, counted by Live, named apart from the final branch."""

import json

from compaction.importers import load_conversation
from compaction.measures.branches_paid import paid_and_final


def _line(kind: str, payload: dict) -> dict:
    return {"timestamp": "2025-10-18T05:23:15.000Z", "type": kind, "payload": payload}


def _count(total: int, last: int) -> dict:
    return _line("event_msg", {"type": "token_count", "info": {
        "total_token_usage": {"input_tokens": total, "cached_input_tokens": 0, "output_tokens": 10},
        "last_token_usage": {"input_tokens": last, "cached_input_tokens": 0, "output_tokens": 10},
        "model_context_window": 272000}})


ROLLOUT = [
    _line("session_meta", {"id": "s1", "timestamp": "2025-10-18T05:23:15.000Z", "cli_version": "0.46.0"}),
    _line("turn_context", {"model": "gpt-5-codex", "cwd": "/w"}),
    _line("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "ls"}]}),
    _line("event_msg", {"type": "user_message", "message": "ls"}),
    _count(1000, 1000),
    _line("response_item", {"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c1"}),
    _line("response_item", {"type": "function_call_output", "call_id": "c1", "output": "a b"}),
    _count(2200, 1200),
    _count(2200, 1200),  # the same total again: a repeat
    _line("event_msg", {"type": "turn_aborted", "reason": "interrupted"}),
]


def test_a_count_after_the_last_response_is_paid_and_named_apart():
    data = "\n".join(json.dumps(line) for line in ROLLOUT).encode()
    figures = paid_and_final(load_conversation(data, name="rollout.jsonl"))
    assert figures.final_calls == 1
    assert figures.paid_calls == 2  # what Live counts: two new token counts
    assert figures.left[0].reason == "unmatched" and figures.left[0].after_call == 1
    assert "paid with no response of their own" in figures.sentence()
