"""Checks against real public agent logs, kept apart from the project (they are not ours to commit).

    .venv/bin/python benchmarks/real_logs.py DIR [--json]

For every session file under DIR (.jsonl, .json, .traj; Claude Code subagent files under `subagents/` are
skipped: they are sidechains of another session), loads it and compares what was loaded with counts taken
from the raw file by a separate, plain reading (raw_counts.py: no code shared with the importers):
- format: the one the folder names (`claude_code/`, `codex/`, `gemini/` in the path), against the detected one;
- responses: model calls the raw file shows (Claude Code: distinct `message.id`; Codex: distinct
  token_count totals; Gemini: messages with tokens), against the assistant messages loaded and the
  calls that carry usage;
- tool results: against those loaded (Codex: output items; Gemini: tool calls with a result);
- compactions: the log's own (compact_boundary lines, `compacted` lines, compression notes), against the
  compaction points loaded;
- tool pairs: problems in what was loaded (a call still waiting at the end of a log is allowed);
- with --replay, the replay at default settings: one model call per response, valid pairs in every request.
Prints one row per file and the totals; exits 1 when a file loses tool results, breaks a pair, is read as
another format, or misses one of its compactions.
"""

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # raw_counts.py, beside this script

from raw_counts import expected_format, raw_agent_counts  # noqa: E402

from compaction.errors import ConversationError  # noqa: E402
from compaction.importers import load_conversation  # noqa: E402
from compaction.importers.formats import suffixes  # noqa: E402
from compaction.model.messages import tool_results  # noqa: E402
from compaction.model.validity import check_pairs, is_waiting_call  # noqa: E402
from compaction.replay.loop import replay  # noqa: E402


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


def check(path: Path, root: Path, with_replay: bool = False) -> dict:
    row = {"file": str(path.relative_to(root)), "expected_format": expected_format(path)}
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
            conversation.metadata.get("restart_lines_skipped", 0) + \
            sum(1 for w in conversation.warnings if w.kind == "result_without_call")  # answering no call: dropped
        row |= {"raw_responses": raw["responses"], "raw_results": raw["results"], "left_out_lines": left_out}
    elif conversation.format in ("codex", "gemini-cli"):
        row |= raw_agent_counts(path, conversation.format) | {"left_out_lines": 0}
    row["compactions"] = len(conversation.metadata.get("compact_boundaries") or ())
    row["window"] = conversation.metadata.get("model_context_window")
    row["version"] = conversation.metadata.get("agent_version")
    if with_replay:
        result = replay(conversation)
        row["replay_calls"] = len(result.calls)
        row["replay_broken"] = sum(1 for r in result.calls if any(
            not is_waiting_call(p, len(result.history(r.call).messages)) for p in check_pairs(result.history(r.call).messages)))
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--replay", action="store_true", help="also replay each file at default settings")
    args = parser.parse_args()
    files = sorted(p for p in args.folder.rglob("*") if p.suffix in suffixes() and p.is_file()
                   and "subagents" not in p.parts)
    rows = [check(path, args.folder, args.replay) for path in files]
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(f"{'file':<60} {'format':<12} {'resp':>5} {'raw':>5} {'results':>7} {'raw':>5} {'usage':>5} "
              f"{'wait':>4} {'broken':>6} {'cmp':>3} {'raw':>3} {'calls':>5}")
        for row in rows:
            if "error" in row:
                print(f"{row['file'][-60:]:<60} ERROR {row['error'][:80]}")
                continue
            print(f"{row['file'][-60:]:<60} {row['format']:<12} {row['responses']:>5} "
                  f"{row.get('raw_responses', '-'):>5} {row['results']:>7} {row.get('raw_results', '-'):>5} "
                  f"{row['usage']:>5} {row['waiting']:>4} {row['broken']:>6} {row['compactions']:>3} "
                  f"{row.get('raw_compactions', '-'):>3} {row.get('replay_calls', '-'):>5}")
    lost = [r for r in rows if "raw_results" in r and r["results"] < r["raw_results"] and not r["left_out_lines"]]
    broken = [r for r in rows if r.get("broken") or r.get("replay_broken")]
    misread = [r for r in rows if r["expected_format"] and r.get("format") != r["expected_format"]]
    missed = [r for r in rows if "raw_compactions" in r and r["compactions"] < r["raw_compactions"]]
    print(f"\n{len(rows)} files; {len(lost)} lose tool results; {len(broken)} have broken pairs; {len(misread)} read "
          f"as another format; {len(missed)} miss a compaction of their own", file=sys.stderr)
    return 1 if lost or broken or misread or missed else 0


if __name__ == "__main__":
    sys.exit(main())
