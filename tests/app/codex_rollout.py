"""A Codex CLI rollout long enough to tune, written in the layout of the hand-written cases
(tests/importers/cases/valid/codex_*.jsonl, after real cli 0.118 rollouts): session_meta, turn_context,
the person's request, then per call a shell_command function_call, its token_count event (the context
growing with every output, the previous call's prompt cached) and its function_call_output."""

import json
from pathlib import Path

MODEL = "gpt-5.2-codex"
BASE_TOKENS = 8_000  # the instructions and tools every call sends


def _line(second: int, kind: str, payload: dict) -> str:
    minutes, seconds = divmod(second, 60)
    return json.dumps({"timestamp": f"2026-04-01T00:{minutes:02d}:{seconds:02d}.000Z", "type": kind,
                       "payload": payload})


def _usage(input_tokens: int, cached: int) -> dict:
    return {"input_tokens": input_tokens, "cached_input_tokens": cached, "output_tokens": 120,
            "reasoning_output_tokens": 40, "total_tokens": input_tokens + 120}


def write_rollout(path: Path, calls: int = 40, output_chars: int = 22_000) -> Path:
    """`calls` model calls, each reading a file of `output_chars` characters: the context grows by about
    output_chars / 4 tokens a call, from BASE_TOKENS to past 200,000 at the defaults."""
    request = "tidy the notes in INBOX: read each one and file it by topic"
    lines = [
        _line(0, "session_meta", {"id": "019d47a1-0000-7000-8000-00000000a7e5", "timestamp": "2026-04-01T00:00:00Z",
                                  "cwd": "/home/dev/vault", "originator": "codex_cli_rs", "cli_version": "0.118.0",
                                  "source": "cli", "model_provider": "openai",
                                  "base_instructions": {"text": "You are Codex, a coding agent."}}),
        _line(1, "event_msg", {"type": "task_started", "turn_id": "t1", "model_context_window": 258_400}),
        _line(1, "turn_context", {"turn_id": "t1", "cwd": "/home/dev/vault", "approval_policy": "on-request",
                                  "sandbox_policy": {"type": "workspace-write"}, "model": MODEL, "effort": "medium",
                                  "summary": "auto"}),
        _line(2, "response_item", {"type": "message", "role": "user",
                                   "content": [{"type": "input_text", "text": request}]}),
    ]
    total, previous, context = {"input": 0, "cached": 0}, 0, BASE_TOKENS
    for call in range(calls):
        second = 3 + 20 * call  # within one turn: the prompt cache stays warm
        lines.append(_line(second, "response_item", {
            "type": "function_call", "name": "shell_command", "call_id": f"call_{call}",
            "arguments": json.dumps({"command": f"cat INBOX/note-{call:03d}.md"})}))
        total["input"] += context
        total["cached"] += previous
        last = _usage(context, previous)
        lines.append(_line(second, "event_msg", {"type": "token_count", "info": {
            "total_token_usage": _usage(total["input"], total["cached"]), "last_token_usage": last,
            "model_context_window": 258_400}}))
        text = f"# note {call}\n" + (f"line {call} of a long note about topic {call % 7}\n" * output_chars)[:output_chars]
        lines.append(_line(second + 1, "response_item", {"type": "function_call_output", "call_id": f"call_{call}",
                                                         "output": text}))
        previous, context = context, context + output_chars // 4 + 30
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
