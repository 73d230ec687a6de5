"""Checks against real public agent logs, kept apart from the project (they are not ours to commit).

    .venv/bin/python benchmarks/real_logs.py DIR [--json]

For every session file under DIR (.jsonl, .json, .traj; subagent files under `subagents/` are skipped:
they are sidechains of another session), loads it and compares what was loaded with counts taken from
the raw file by a separate, plain reading of its lines (no code shared with the importers):
- responses: distinct `message.id` (or `requestId`) of the main thread's assistant lines, against the
  assistant messages loaded (equal unless the file holds rewinds or restarts, which the loader reports);
- tool results: tool_result blocks on main-thread lines, against those loaded;
- tool pairs: problems in what was loaded (a call still waiting at the end of a log is allowed);
- usage: responses that recorded usage.
Prints one row per file and the totals; exits 1 when a file loses tool results or breaks a pair.
"""

import argparse
import json
import sys
from pathlib import Path

from compaction.errors import ConversationError
from compaction.importers import load_conversation
from compaction.importers.formats import SUFFIXES
from compaction.model.messages import tool_results
from compaction.model.validity import check_pairs, is_waiting_call


def raw_counts(path: Path) -> dict:
    """Counts read straight from a Claude Code file's lines (other formats: None)."""
    responses, results, lines = set(), 0, 0
    for raw in path.read_bytes().splitlines():
        try:
            line = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(line, dict) or line.get("isSidechain") is True:
            continue
        message = line.get("message") if isinstance(line.get("message"), dict) else {}
        if line.get("type") == "assistant":
            lines += 1
            responses.add(message.get("id") or line.get("requestId") or f"line{lines}")
        elif line.get("type") == "user" and isinstance(message.get("content"), list):
            results += sum(1 for b in message["content"] if isinstance(b, dict) and b.get("type") == "tool_result")
    return {"responses": len(responses), "results": results}


def check(path: Path, root: Path) -> dict:
    row = {"file": str(path.relative_to(root))}
    try:
        conversation = load_conversation(path)
    except ConversationError as error:
        return row | {"error": str(error)}
    messages = conversation.messages
    problems = check_pairs(messages)
    broken = [p for p in problems if not is_waiting_call(p, len(messages))]
    row |= {"format": conversation.format, "messages": len(messages),
            "responses": sum(1 for m in messages if m["role"] == "assistant"),
            "results": sum(len(tool_results(m)) for m in messages),
            "usage": sum(1 for u in conversation.usage if u is not None),
            "waiting": len(problems) - len(broken), "broken": len(broken),
            "warnings": sorted({w.group for w in conversation.warnings})}
    if conversation.format == "claude-code":
        raw = raw_counts(path)
        left_out = conversation.metadata.get("branch_lines_skipped", 0) + \
            conversation.metadata.get("restart_lines_skipped", 0)
        row |= {"raw_responses": raw["responses"], "raw_results": raw["results"], "left_out_lines": left_out}
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    files = sorted(p for p in args.folder.rglob("*") if p.suffix in SUFFIXES and p.is_file()
                   and "subagents" not in p.parts)
    rows = [check(path, args.folder) for path in files]
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(f"{'file':<72} {'format':<12} {'resp':>5} {'raw':>5} {'results':>7} {'raw':>5} {'usage':>5} "
              f"{'wait':>4} {'broken':>6}")
        for row in rows:
            if "error" in row:
                print(f"{row['file'][-72:]:<72} ERROR {row['error'][:80]}")
                continue
            print(f"{row['file'][-72:]:<72} {row['format']:<12} {row['responses']:>5} "
                  f"{row.get('raw_responses', '-'):>5} {row['results']:>7} {row.get('raw_results', '-'):>5} "
                  f"{row['usage']:>5} {row['waiting']:>4} {row['broken']:>6}")
    lost = [r for r in rows if "raw_results" in r and r["results"] < r["raw_results"] and not r["left_out_lines"]]
    broken = [r for r in rows if r.get("broken")]
    print(f"\n{len(rows)} files; {len(lost)} lose tool results; {len(broken)} have broken pairs", file=sys.stderr)
    return 1 if lost or broken else 0


if __name__ == "__main__":
    sys.exit(main())
