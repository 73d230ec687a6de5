"""Counts read straight from a Codex rollout or a Gemini CLI chat, for benchmarks/real_logs.py: a plain
reading of the raw file that shares no code with the importers, so the two can disagree."""

import json
from pathlib import Path

FOLDER_FORMATS = {"claude_code": "claude-code", "codex": "codex", "gemini": "gemini-cli"}
CODEX_OUTPUTS = ("function_call_output", "custom_tool_call_output")


def expected_format(path: Path) -> str | None:
    """The format the folder names (real_logs/<agent>/...), or None."""
    return next((FOLDER_FORMATS[part] for part in path.parts if part in FOLDER_FORMATS), None)


def raw_agent_counts(path: Path, format: str) -> dict:
    return _codex(path) if format == "codex" else _gemini(path)


def _codex(path: Path) -> dict:
    """Model calls: distinct cumulative totals of token_count events with usage (a repeat keeps its
    total); tool results: output items; compactions: `compacted` lines."""
    totals, results, compactions = set(), 0, 0
    for raw in path.read_bytes().split(b"\n"):
        try:
            line = json.loads(raw)
        except ValueError:
            continue
        payload = line.get("payload") if isinstance(line, dict) else None
        if not isinstance(payload, dict):
            payload = line if isinstance(line, dict) else {}  # the 2025 layout: bare items
        if line.get("type") == "compacted":
            compactions += 1
        elif payload.get("type") == "token_count" and isinstance(payload.get("info"), dict):
            last = payload["info"].get("last_token_usage") or {}
            if last.get("input_tokens") or last.get("output_tokens"):
                totals.add(json.dumps(payload["info"].get("total_token_usage"), sort_keys=True))
        elif payload.get("type") in CODEX_OUTPUTS:
            results += 1
    return {"raw_responses": len(totals), "raw_results": results, "raw_compactions": compactions}


def _gemini(path: Path) -> dict:
    """Model calls: gemini messages with non-zero tokens; tool results: tool calls with a result;
    compactions: info notes that announce a compression. JSON-lines recordings count each id once
    (the lines' messages and the lists of `$set` checkpoints)."""
    text = path.read_text(encoding="utf-8")
    try:
        messages = json.loads(text).get("messages", [])
    except ValueError:
        by_id = {}
        for raw in text.splitlines():
            try:
                value = json.loads(raw)
            except ValueError:
                continue
            if isinstance(value, dict) and isinstance(value.get("$set"), dict):  # a checkpoint's list
                value = value["$set"]
                by_id |= {m["id"]: m for m in value.get("messages") or () if isinstance(m, dict) and "id" in m}
            elif isinstance(value, dict) and isinstance(value.get("id"), str):
                by_id[value["id"]] = value
        messages = list(by_id.values())
    calls = sum(1 for m in messages if m.get("type") == "gemini" and isinstance(m.get("tokens"), dict)
                and (m["tokens"].get("input") or m["tokens"].get("output")))
    results = sum(1 for m in messages for c in m.get("toolCalls") or () if c.get("result"))
    notes = sum(1 for m in messages if m.get("type") == "info" and "compress" in str(m.get("content", "")).lower())
    return {"raw_responses": calls, "raw_results": results, "raw_compactions": notes}
