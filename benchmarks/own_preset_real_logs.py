"""How close an agent's own preset comes to what real sessions of that agent did, on public logs kept outside
the project (Codex CLI rollouts and Gemini CLI chat recordings; Claude Code has benchmarks/fidelity_real_logs.py).

    .venv/bin/python benchmarks/own_preset_real_logs.py DIR [--agents codex,gemini-cli] [--json]

For every log under DIR with a compaction of its own, its agent's preset with no flags (the window the log
names), one row per compaction of the log: the call the log compacted before against the preset's, the
reactive compactions before it, and the tokens of the first call after against the recorded ones (for a
compaction after the log's last call: the preset's estimate of that last call against the recorded). Targets
on the automatic compactions (a trigger the log or the agent's reader calls "manual" is the person's): within 1
call, no reactive compaction before, the tokens carried on within 10 %; counted on both parts of the split by
repository (holdout.py).
"""

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # holdout.py, beside this script

from holdout import PARTS, part_of  # noqa: E402

from compaction import load_conversation, replay
from compaction.agents import agent_of
from compaction.errors import ConversationError
from compaction.replay.fidelity import fidelity


def check(path: Path, agents: tuple[str, ...]) -> list[dict]:
    try:
        conversation = load_conversation(path)
    except ConversationError as error:
        return [{"file": path.name, "error": str(error)}]
    found = agent_of(conversation.format)
    if found is None or found.name not in agents or not conversation.metadata.get("compact_boundaries"):
        return []
    result = replay(conversation, strategy=found.own_preset, keep_histories=False)
    rows = []
    for rank, pair in enumerate(fidelity(result).pairs):
        row = {"file": path.name, "path": str(path), "part": part_of(path), "agent": found.name,
               "compaction": rank + 1, "window": result.model_window_tokens, "trigger": pair.trigger,
               "pre_tokens": pair.pre_tokens,
               "log_call": pair.log_call, "preset_call": pair.strategy_call, "calls_apart": pair.calls_apart}
        first = pair.strategy_call if pair.strategy_call is not None else pair.log_call
        row["reactive_before"] = sum(1 for call in result.calls if "reactive" in call.acted
                                     and (first is None or call.call <= first))
        compared = pair.log_call if pair.log_call is not None else len(result.calls) - 1
        ours = pair.strategy_call if pair.log_call is not None else compared
        recorded = result.calls[compared].measures.recorded
        row["recorded_after"] = recorded["context_tokens"] if recorded else None
        row["preset_after"] = result.calls[ours].tokens if ours is not None else None
        row["carried_error"] = (row["preset_after"] / row["recorded_after"] - 1) if row["recorded_after"] \
            and row["preset_after"] is not None else None
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--agents", default="codex,gemini-cli", help="the agents whose logs are checked")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    agents = tuple(args.agents.split(","))
    paths = sorted(p for p in args.folder.rglob("*") if p.suffix in (".jsonl", ".json") and p.is_file())
    rows = [row for path in paths for row in check(path, agents)]
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'file':<44} {'#':>2} {'window':>9} {'log':>4} {'preset':>6} {'apart':>5} {'reactive':>8} "
          f"{'recorded':>9} {'preset':>9} {'error':>7}")
    for row in rows:
        if "error" in row:
            print(f"{row['file'][:44]:<44} ERROR {row['error'][:80]}")
            continue
        error = "-" if row["carried_error"] is None else f"{row['carried_error']:+.1%}"
        print(f"{row['file'][-44:]:<44} {row['compaction']:>2} {row['window']:>9,} {row['log_call']!s:>4} "
              f"{row['preset_call']!s:>6} "
              f"{row['calls_apart']!s:>5} {row['reactive_before']:>8} {row['recorded_after'] or 0:>9,} "
              f"{row['preset_after'] or 0:>9,} {error:>7}")
    print_summary([r for r in rows if "error" not in r])
    return 0


def print_summary(good: list[dict]) -> None:
    """Per part and agent: the automatic compactions within 1 call, with no reactive one before, and carried on
    within 10 %."""
    print(f"\n{'part':<9} {'agent':<11} {'automatic':>9} {'within 1 call':>13} {'no reactive before':>18} "
          f"{'carried within 10 %':>19} {'by the person':>13} {'after the last call':>19}")
    for part in PARTS:
        for agent in sorted({r["agent"] for r in good}):
            mine = [r for r in good if r["part"] == part and r["agent"] == agent]
            # a compaction after the log's last call has no call to compare (its tokens are, below)
            auto = [r for r in mine if r.get("trigger") != "manual" and r["log_call"] is not None]
            last = [r for r in mine if r.get("trigger") != "manual" and r["log_call"] is None]
            if not mine:
                continue
            within = sum(1 for r in auto if r["calls_apart"] is not None and abs(r["calls_apart"]) <= 1)
            carried = [r for r in auto + last if r["carried_error"] is not None]
            near = sum(1 for r in carried if abs(r["carried_error"]) <= 0.10)
            print(f"{part:<9} {agent:<11} {len(auto):>9} {within:>13} "
                  f"{sum(1 for r in auto if not r['reactive_before']):>18} {near:>12} of {len(carried):>3} "
                  f"{len(mine) - len(auto) - len(last):>13} {len(last):>19}")


if __name__ == "__main__":
    raise SystemExit(main())
