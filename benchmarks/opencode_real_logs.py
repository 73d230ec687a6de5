"""OpenCode's real public logs against a plain count of their raw files (kept apart from the project: they
are not ours to commit).

    .venv/bin/python benchmarks/opencode_real_logs.py DIR

For every OpenCode database (*.db) and export or message list (*.json) under DIR, reads the raw file with
sqlite3 (read only) or json alone, sharing no code with the reader, and counts per session: the model calls
(step-finish parts outside the summary messages; an assistant message without one counts once), their
tokens (input + output + reasoning + cache read + cache write) and cost, the compaction parts and the
summary messages. Then loads each session as the lab does (a corpus of the folder: every session of a
database on its own) and compares; replays it with the `opencode` preset and `as-recorded`. Exits 1 on a
difference.
"""

import json
import sqlite3
import sys
from pathlib import Path

from compaction.corpus import discover
from compaction.importers import load_conversation, load_run
from compaction.replay.loop import replay
from compaction.strategies import build

KEYS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens")


def raw_sessions(path: Path) -> dict[str, list[tuple[dict, list[dict]]]]:
    """{session id: [(message info, parts)]} straight from the file."""
    if path.suffix == ".db":
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        found: dict[str, list] = {}
        for session_id, message_id, data in connection.execute(
                "SELECT session_id, id, data FROM message ORDER BY time_created, id"):
            parts = [json.loads(row[0]) for row in connection.execute(
                "SELECT data FROM part WHERE message_id = ? ORDER BY id", (message_id,))]
            found.setdefault(session_id, []).append((json.loads(data), parts))
        for (session_id,) in connection.execute("SELECT id FROM session"):
            found.setdefault(session_id, [])
        connection.close()
        return found
    value = json.loads(path.read_text(encoding="utf-8"))
    exports = value if isinstance(value, list) and value and "messages" in value[0] else [value]
    if isinstance(value, list) and value and "parts" in value[0]:
        exports = [{"info": {"id": value[0]["info"].get("sessionID", "")}, "messages": value}]
    return {item["info"].get("id", ""): [(m["info"], m["parts"]) for m in item["messages"]] for item in exports}


def plain(messages: list[tuple[dict, list[dict]]]) -> dict:
    calls = tokens = compactions = summaries = 0
    cost = 0.0
    for info, parts in messages:
        compactions += sum(1 for part in parts if part.get("type") == "compaction")
        if info.get("role") != "assistant":
            continue
        if info.get("summary") is True:
            summaries += 1
            continue
        finishes = [part for part in parts if part.get("type") == "step-finish"]
        for finish in finishes or [{"tokens": info.get("tokens") or {}, "cost": info.get("cost") or 0}]:
            counted = finish["tokens"]
            cache = counted.get("cache") or {}
            total = sum(counted.get(key) or 0 for key in ("input", "output", "reasoning")) + \
                (cache.get("read") or 0) + (cache.get("write") or 0)
            if finishes or total or parts:
                calls += 1
                tokens += total
                cost += finish.get("cost") or 0
    return {"calls": calls, "tokens": tokens, "cost": round(cost, 6), "compactions": compactions,
            "summaries": summaries}


def loaded(conversation) -> dict:
    usage = [u for m, u in zip(conversation.messages, conversation.usage, strict=True) if m["role"] == "assistant"]
    meta = conversation.metadata
    return {"calls": len(usage), "tokens": sum(sum(u[k] for k in KEYS) for u in usage if u),
            "cost": round(meta["logged_cost_usd"], 6), "compactions": len(meta["compact_boundaries"])
            + meta["failed_compactions"] + meta["compactions_without_summary"], "summaries": meta["compaction_calls"]}


def main(root: Path) -> int:
    raw = {path: raw_sessions(path) for path in sorted(root.rglob("*")) if path.suffix in (".db", ".json")}
    bad = 0
    print(f"{'session':70} {'calls':>11} {'tokens':>19} {'cost $':>17} {'cmp':>5} {'opencode':>9} {'as-rec':>7}")
    for item in discover(root):
        path = item.path
        conversation = load_run(path, item.run) if item.run else load_conversation(path)
        if conversation.format != "opencode":
            print(f"{item.name}: read as {conversation.format}")
            bad += 1
            continue
        session = conversation.metadata["session_id"] or next(iter(raw[path]))
        expected, found = plain(raw[path][session]), loaded(conversation)
        same = expected == found
        bad += not same
        preset = replay(conversation, strategy=build("opencode", {}))
        recorded = replay(conversation, strategy="as-recorded")
        print(f"{item.name[:70]:70} {found['calls']:>5}/{expected['calls']:<5} {found['tokens']:>9,}/{expected['tokens']:<9,}"
              f" {found['cost']:>8.4f}/{expected['cost']:<8.4f} {found['compactions']}/{expected['compactions']:<3}"
              f" {len(preset.calls):>9} {len(recorded.calls):>7} {'' if same else 'DIFFERS'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
