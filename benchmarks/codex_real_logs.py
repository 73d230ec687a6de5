"""How close the codex preset comes to what real Codex CLI sessions did, on public rollouts kept outside the
project.

    .venv/bin/python benchmarks/codex_real_logs.py DIR [--json]

For every rollout under DIR with a compaction of its own, `replay --strategy codex` with no flags (the window
the rollout names): the call the log compacted before against the preset's, the reactive compactions before
it, and the tokens of the first call after against the recorded ones. Targets: within 1 call, no reactive
compaction before, the tokens carried on within 15 %.
"""

import argparse
import json
from pathlib import Path

from compaction import load_conversation, replay
from compaction.errors import ConversationError
from compaction.measures.fidelity import fidelity


def check(path: Path) -> dict | None:
    try:
        conversation = load_conversation(path)
    except ConversationError as error:
        return {"file": path.name, "error": str(error)}
    if conversation.format != "codex" or not conversation.metadata.get("compact_boundaries"):
        return None
    result = replay(conversation, strategy="codex", keep_histories=False)
    pair = fidelity(result).pairs[0]
    row = {"file": path.name, "window": result.model_window_tokens, "log_call": pair.log_call,
           "preset_call": pair.strategy_call, "calls_apart": pair.calls_apart}
    first = pair.strategy_call if pair.strategy_call is not None else pair.log_call
    row["reactive_before"] = sum(1 for call in result.calls if "reactive" in call.acted
                                 and (first is None or call.call <= first))
    recorded = result.calls[pair.log_call].measures.recorded if pair.log_call is not None else None
    row["recorded_after"] = recorded["context_tokens"] if recorded else None
    row["preset_after"] = result.calls[pair.strategy_call].tokens if pair.strategy_call is not None else None
    row["carried_error"] = (row["preset_after"] / row["recorded_after"] - 1) if row["recorded_after"] \
        and row["preset_after"] is not None else None
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = [row for path in sorted(args.folder.rglob("*.jsonl")) if (row := check(path)) is not None]
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'file':<44} {'window':>8} {'log':>4} {'preset':>6} {'apart':>5} {'reactive':>8} {'recorded':>9} "
          f"{'preset':>9} {'error':>7}")
    for row in rows:
        if "error" in row:
            print(f"{row['file'][:44]:<44} ERROR {row['error'][:80]}")
            continue
        error = "-" if row["carried_error"] is None else f"{row['carried_error']:+.1%}"
        print(f"{row['file'][-44:]:<44} {row['window']:>8,} {row['log_call']!s:>4} {row['preset_call']!s:>6} "
              f"{row['calls_apart']!s:>5} {row['reactive_before']:>8} {row['recorded_after'] or 0:>9,} "
              f"{row['preset_after'] or 0:>9,} {error:>7}")
    good = [r for r in rows if "error" not in r]
    within = sum(1 for r in good if r["calls_apart"] is not None and abs(r["calls_apart"]) <= 1)
    carried = sum(1 for r in good if r["carried_error"] is not None and abs(r["carried_error"]) <= 0.15)
    print(f"\n{len(good)} rollouts with a compaction: within 1 call {within}, no reactive compaction before "
          f"{sum(1 for r in good if not r['reactive_before'])}, tokens carried on within 15 % {carried}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
