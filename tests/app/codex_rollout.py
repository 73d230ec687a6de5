"""A Codex CLI rollout long enough to tune, written in the layout of the hand-written cases
(tests/importers/cases/valid/codex_*.jsonl, after real cli 0.118 rollouts): session_meta, turn_context,
the person's request, then per call a shell_command function_call, its token_count event (the context
growing with every output, the previous call's prompt cached) and its function_call_output. A one-off turn
on another model (`one_off`: the call it makes, its model and the model_context_window its turn reports, as
a rollout with a turn of gpt-5.3-codex-spark reports 121,600) starts with its own task_started and
turn_context, and the next call goes back to MODEL in a turn of its own."""

import json
from pathlib import Path

MODEL = "gpt-5.2-codex"
BASE_TOKENS = 8_000  # the instructions and tools every call sends
WINDOW = 258_400  # what cli 0.55 on reports for the GPT-5 family: 95 % of 272,000


def _line(second: int, kind: str, payload: dict) -> str:
    minutes, seconds = divmod(second, 60)
    return json.dumps({"timestamp": f"2026-04-01T00:{minutes:02d}:{seconds:02d}.000Z", "type": kind,
                       "payload": payload})


def _usage(input_tokens: int, cached: int) -> dict:
    return {"input_tokens": input_tokens, "cached_input_tokens": cached, "output_tokens": 120,
            "reasoning_output_tokens": 40, "total_tokens": input_tokens + 120}


def _turn(second: int, turn: str, model: str, window: int, request: str) -> list[str]:
    return [
        _line(second, "event_msg", {"type": "task_started", "turn_id": turn, "model_context_window": window}),
        _line(second, "turn_context", {"turn_id": turn, "cwd": "/home/dev/vault", "approval_policy": "on-request",
                                       "sandbox_policy": {"type": "workspace-write"}, "model": model,
                                       "effort": "medium", "summary": "auto"}),
        _line(second, "response_item", {"type": "message", "role": "user",
                                         "content": [{"type": "input_text", "text": request}]}),
    ]


def write_rollout(path: Path, calls: int = 40, output_chars: int = 22_000, model: str = MODEL,
                  one_off: tuple[int, str, int] | None = None) -> Path:
    """`calls` model calls, each reading a file of `output_chars` characters: the context grows by about
    output_chars / 4 tokens a call, from BASE_TOKENS to past 200,000 at the defaults."""
    request = "tidy the notes in INBOX: read each one and file it by topic"
    lines = [
        _line(0, "session_meta", {"id": "019d47a1-0000-7000-8000-00000000a7e5", "timestamp": "2026-04-01T00:00:00Z",
                                  "cwd": "/home/dev/vault", "originator": "codex_cli_rs", "cli_version": "0.118.0",
                                  "source": "cli", "model_provider": "openai",
                                  "base_instructions": {"text": "You are Codex, a coding agent."}}),
        *_turn(1, "t1", model, WINDOW, request),
    ]
    total, previous, context = {"input": 0, "cached": 0}, 0, BASE_TOKENS
    for call in range(calls):
        second = 3 + 20 * call  # within one turn: the prompt cache stays warm
        window = WINDOW
        if one_off is not None and call == one_off[0]:
            window = one_off[2]
            lines.extend(_turn(second, f"t{call}", one_off[1], window, f"quick one: is note {call} a duplicate?"))
        elif one_off is not None and call == one_off[0] + 1:
            lines.extend(_turn(second, f"t{call}", model, window, "go on with the rest"))
        lines.append(_line(second, "response_item", {
            "type": "function_call", "name": "shell_command", "call_id": f"call_{call}",
            "arguments": json.dumps({"command": f"cat INBOX/note-{call:03d}.md"})}))
        total["input"] += context
        total["cached"] += previous
        last = _usage(context, previous)
        lines.append(_line(second, "event_msg", {"type": "token_count", "info": {
            "total_token_usage": _usage(total["input"], total["cached"]), "last_token_usage": last,
            "model_context_window": window}}))
        text = f"# note {call}\n" + (f"line {call} of a long note about topic {call % 7}\n" * output_chars)[:output_chars]
        lines.append(_line(second + 1, "response_item", {"type": "function_call_output", "call_id": f"call_{call}",
                                                         "output": text}))
        previous, context = context, context + output_chars // 4 + 30
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
