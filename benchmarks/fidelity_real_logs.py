"""How close the replay comes to what real Claude Code sessions did, on public logs kept outside the project.

    .venv/bin/python benchmarks/fidelity_real_logs.py DIR [--json]

For every main Claude Code session under DIR (subagent files are left out: they are checked through
their parents), from the replay's own JSON (`replay --json` computes the same):
- recorded: `totals.recorded_cost_usd` against a plain reading of the raw lines priced by
  benchmarks/recorded_cost.py (must agree within 1 %); whether every call's `recorded.model` is filled;
- off: the tutorial's pipeline with every setting at its maximum (compaction off), its cost against the
  recorded cost over the same calls (those whose usage the log recorded), for logs without a compaction of
  their own (target: within 7 %). Those calls send what the agent sent, so they are billed at the log's
  own reads and writes; `alone` is the same replay with `from_log=False`, the token and cache models
  without the log's counts: how far the models come where the log cannot help;
- preset: for logs Claude Code auto-compacted, `--strategy claude-code` at its defaults: its first
  compaction's call against the log's first boundary's (target: within 3 calls), and the median error of
  its per-call tokens against the recorded context before that boundary (target: 3 %).
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # recorded_cost.py, beside this script

from recorded_cost import plain_reading  # noqa: E402

from compaction import Settings, load_conversation, replay  # noqa: E402
from compaction.errors import ConversationError  # noqa: E402
from compaction.measures.fidelity import fidelity  # noqa: E402
from compaction.model.settings import LIMITS  # noqa: E402

OFF = Settings(**{name: high for name, (_, high) in LIMITS.items() if name not in ("keep_head",
                                                                                 "reactive_keep_last")})


def check(path: Path) -> dict | None:
    try:
        conversation = load_conversation(path)
    except ConversationError as error:
        return {"file": path.name, "error": str(error)}
    if conversation.format != "claude-code" or not conversation.has_usage:
        return None
    row = {"file": path.name, "version": conversation.metadata.get("agent_version"),
           "calls": sum(1 for m in conversation.messages if m["role"] == "assistant")}
    off = replay(conversation, OFF, keep_histories=False, model_window_tokens=10_000_000).as_dict()
    totals = off["totals"]
    row["recorded"] = totals["recorded_cost_usd"]
    row["plain"] = plain_reading(path)["branch_cost"]
    row["models_filled"] = all(c["recorded"]["model"] for c in off["calls"] if c.get("recorded"))
    boundaries = conversation.metadata.get("compact_boundaries") or []
    row["own_compactions"] = len(boundaries)
    # over the same calls as the recorded cost: a log may record no usage for some (a proxied model)
    row["off"] = sum(c["cost_usd"] for c in off["calls"] if c.get("recorded")) if not boundaries else None
    row["unrecorded_calls"] = totals["calls"] - totals["recorded_calls"]
    # the token and cache models alone, as if the log had recorded nothing but their fit
    alone = replay(conversation, OFF, keep_histories=False, model_window_tokens=10_000_000, from_log=False).as_dict()
    row["models_alone"] = sum(c["cost_usd"] for c in alone["calls"] if c.get("recorded")) if not boundaries else None
    auto = [b for b in boundaries if b.get("trigger") == "auto"]
    if auto:
        preset = replay(conversation, strategy="claude-code", keep_histories=False)
        found = fidelity(preset)
        first = found.pairs[0] if found and found.pairs else None
        row["log_call"] = first.log_call if first else None
        row["preset_call"] = first.strategy_call if first else None
        row["estimate_error"] = found.estimate_error if found else None
    return row


def ratio(a, b) -> str:
    return f"{a / b:.3f}" if a is not None and b else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    files = sorted(p for p in args.folder.rglob("*.jsonl") if "subagents" not in p.parts
                   and not p.name.startswith("agent-"))
    rows = [row for path in files if (row := check(path)) is not None]
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'file':<40} {'version':>8} {'calls':>5} {'recorded $':>10} {'plain':>6} {'off/rec':>7} {'alone':>6} "
          f"{'log call':>8} {'preset':>6} {'apart':>5} {'est err':>7}")
    for row in rows:
        if "error" in row:
            print(f"{row['file'][:40]:<40} ERROR {row['error'][:80]}")
            continue
        apart = row["preset_call"] - row["log_call"] if row.get("preset_call") is not None \
            and row.get("log_call") is not None else None
        print(f"{row['file'][:40]:<40} {row['version'] or '-':>8} {row['calls']:>5} {row['recorded'] or 0:>10.2f} "
              f"{ratio(row['recorded'], row['plain']):>6} {ratio(row['off'], row['recorded']):>7} "
              f"{ratio(row['models_alone'], row['recorded']):>6} "
              f"{row.get('log_call', '-')!s:>8} {row.get('preset_call', '-')!s:>6} {apart if apart is not None else '-'!s:>5} "
              f"{'-' if row.get('estimate_error') is None else format(row['estimate_error'], '.1%'):>7}")
    good = [r for r in rows if "error" not in r]
    offs = [r["off"] / r["recorded"] for r in good if r["off"] is not None and r["recorded"]]
    aparts = [abs(r["preset_call"] - r["log_call"]) for r in good if r.get("preset_call") is not None
              and r.get("log_call") is not None]
    never = sum(1 for r in good if r.get("log_call") is not None and r.get("preset_call") is None)
    print(f"\n{len(good)} logs; recorded within 1 % of the plain reading: "
          f"{sum(1 for r in good if r['plain'] and abs(r['recorded'] / r['plain'] - 1) <= 0.01)}; models filled: "
          f"{sum(r['models_filled'] for r in good)}")
    alones = [r["models_alone"] / r["recorded"] for r in good if r["models_alone"] is not None and r["recorded"]]
    if alones:
        print(f"the models alone / recorded on the same logs: median {statistics.median(alones):.3f}, "
              f"range {min(alones):.3f}-{max(alones):.3f}, within 7 %: {sum(abs(x - 1) <= 0.07 for x in alones)}")
    if offs:
        print(f"off / recorded on {len(offs)} logs without a compaction of their own: median {statistics.median(offs):.3f}, "
              f"range {min(offs):.3f}-{max(offs):.3f}, within 7 %: {sum(abs(x - 1) <= 0.07 for x in offs)}")
    if aparts or never:
        print(f"preset's first compaction on {len(aparts) + never} auto-compacted logs: within 3 calls "
              f"{sum(a <= 3 for a in aparts)}, never {never}, calls apart {sorted(aparts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
