"""Real public tasks of Cline, Roo Code and Kilo Code, checked against a plain reading of the raw files
(kept apart from the project: they are not ours to commit).

    .venv/bin/python benchmarks/cline_real_logs.py DIR [--json]

For every ui_messages.json and api_conversation_history.json under DIR: the format it loads as; the calls,
tokens and cost the loader found against a plain count of the raw file that shares no code with the reader
(ui_messages.json: its api_req_started rows, their tokensIn + tokensOut + cacheWrites + cacheReads and their
cost; api_conversation_history.json: its assistant messages and the `metrics` on them); the log's own
compactions (the changes of conversationHistoryDeletedRange, the condense and truncation rows, the
isSummary and isTruncationMarker messages) against those loaded; and the preset named after the agent,
replayed on it (the calls it acted at, tool pairs valid in every request). Exits 1 on any difference.
"""

import argparse
import json
import sys
from pathlib import Path

from compaction import check_pairs, replay
from compaction.errors import ConversationError
from compaction.importers import load_conversation
from compaction.strategies import build

NAMES = ("ui_messages.json", "api_conversation_history.json")


def plain_panel(rows: list) -> dict:
    requests, tokens, cost, compactions, last_range = 0, 0, 0.0, 0, None
    for row in rows:
        if not isinstance(row, dict):
            continue
        if "conversationHistoryIndex" in row or "conversationHistoryDeletedRange" in row:
            current = row.get("conversationHistoryDeletedRange")
            if current != last_range and current:
                compactions += 1
            last_range = current
        if row.get("say") in ("condense_context", "sliding_window_truncation") and (
                row.get("contextCondense") or row.get("contextTruncation")):
            compactions += 1
        if row.get("say") != "api_req_started":
            continue
        requests += 1
        try:
            info = json.loads(row.get("text") or "")
        except ValueError:
            continue
        keys = ("tokensIn", "tokensOut") if info.get("apiProtocol") == "openai" else (
            "tokensIn", "tokensOut", "cacheWrites", "cacheReads")
        tokens += sum(info.get(key) or 0 for key in keys)
        cost += info.get("cost") or 0
    return {"calls": requests, "tokens": tokens, "cost": cost, "compactions": compactions}


def plain_history(rows: list) -> dict:
    replies = [row for row in rows if isinstance(row, dict) and row.get("role") == "assistant"]
    metered = [row["metrics"]["tokens"] for row in replies if isinstance(row.get("metrics"), dict)
               and isinstance(row["metrics"].get("tokens"), dict)]
    tokens = sum((t.get("prompt") or 0) + (t.get("completion") or 0) + (t.get("cached") or 0) for t in metered)
    cost = sum(row["metrics"].get("cost") or 0 for row in replies if isinstance(row.get("metrics"), dict))
    marks = sum(1 for row in rows if isinstance(row, dict) and (row.get("isSummary") or row.get("isTruncationMarker")))
    return {"calls": len(replies), "tokens": tokens, "cost": cost, "compactions": marks}


def loaded(conversation, panel: bool) -> dict:
    usage = [u for u in conversation.usage if u]
    tokens = sum(u["input_tokens"] + u["output_tokens"] + u["cache_creation_input_tokens"] + u["cache_read_input_tokens"]
                 for u in usage)
    calls = conversation.metadata["calls"] if panel else sum(1 for m in conversation.messages if m["role"] == "assistant")
    return {"calls": calls, "tokens": tokens, "cost": sum(u.get("cost_usd", 0.0) for u in usage),
            "compactions": len(conversation.metadata.get("compact_boundaries") or ())}


def check(path: Path, root: Path) -> dict:
    row: dict = {"file": str(path.relative_to(root))}
    raw = json.loads(path.read_text(encoding="utf-8"))
    panel = path.name == NAMES[0]
    row["plain"] = plain_panel(raw) if panel else plain_history(raw)
    try:  # the file alone, as an upload gives it
        conversation = load_conversation(path.read_bytes(), name=path.name)
    except ConversationError as error:
        row["error"] = str(error)
        return row
    row["format"] = conversation.format
    row["loaded"] = loaded(conversation, panel)
    row["same"] = {key: abs(row["plain"][key] - row["loaded"][key]) < 1e-9 for key in row["plain"]}
    result = replay(conversation, strategy=build(conversation.format), keep_histories=True)
    row["preset_acted_at"] = [record.call for record in result.calls if record.acted]
    row["log_compacted_at"] = [b["index"] for b in conversation.metadata.get("compact_boundaries") or ()]
    row["preset_pairs_valid"] = all(check_pairs(result.history(r.call).messages) == [] for r in result.calls
                                    if not conversation.pair_problems)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [check(path, args.folder) for path in sorted(args.folder.rglob("*.json")) if path.name in NAMES]
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        for row in rows:
            if "error" in row:
                print(f"{row['file']}: {row['error']}")
                continue
            plain, got = row["plain"], row["loaded"]
            print(f"{row['file']}: {row['format']}; calls {got['calls']} (plain {plain['calls']}), tokens "
                  f"{got['tokens']:,} (plain {plain['tokens']:,}), cost ${got['cost']:.6f} (plain ${plain['cost']:.6f}), "
                  f"compactions {got['compactions']} (plain {plain['compactions']}) at {row['log_compacted_at']}; "
                  f"preset {row['format']} acted at calls {row['preset_acted_at']}")
    bad = [row for row in rows if "error" in row or not all(row["same"].values())]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
