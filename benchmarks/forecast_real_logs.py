"""How well the live forecast (`compaction watch --json`) foresaw the compactions of real sessions, on public
logs kept outside the project.

    .venv/bin/python benchmarks/forecast_real_logs.py DIR [DIR ...] [--json] [--limit N]

Each log with a compaction of its agent's own (Claude Code: an auto compact_boundary; Codex: a `compacted`
line) is written to a new file a line at a time, the follower polling after each line, as `watch` follows
an agent's log (tests/live/growing.py does the same). At 20, 10 and 5 calls before each compaction (within
the stretch since the one before), the forecast's `calls_left` and `calls_left_range` against the calls
that were left; at the last call before it, `kept_tokens` against the context of the first call after.
Targets: calls_left within max(3, 30 %) of the truth at 80 % of the points or more; the range holding the
truth at 80 % or more; kept_tokens within 10 %.
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

from compaction.live.follower import Follower
from compaction.live.session import CallUpdate

BEFORE = (20, 10, 5)
MARKS = (b'"compact_boundary"', b'"type":"compacted"')


def follow(path: Path, folder: Path):
    """The forecast after each call (by call number) and the session, feeding `path` line by line."""
    target = folder / path.name
    target.write_bytes(b"")
    follower = Follower(target)
    forecasts: dict[int, dict] = {}
    with open(target, "ab") as handle:
        for line in path.read_bytes().splitlines(keepends=True):
            handle.write(line)
            handle.flush()
            for reported in follower.poll():
                if isinstance(reported.update, CallUpdate) and reported.forecast is not None:
                    forecasts[reported.update.call.number] = reported.forecast.as_dict()
    return forecasts, follower.session


def points(path: Path, folder: Path) -> list[dict]:
    forecasts, session = follow(path, folder)
    rows, start = [], 0
    for rank, compaction in enumerate(session.compactions if session else [], 1):
        own = compaction.trigger in ("auto", None)  # Codex's lines name no trigger; a manual one is the person's
        before = compaction.calls_before
        if own and before > start:
            for distance in (*BEFORE, 1):
                call = before + 1 - distance  # the call after which `distance` calls were left
                found = forecasts.get(call)
                if call <= start or found is None:
                    continue
                low, high = (found.get("calls_left_range") or [None, None])
                row = {"file": path.name, "compaction": rank, "before": distance, "call": call,
                       "calls_left": found["calls_left"], "range": [low, high]}
                if distance == 1:
                    row["kept_tokens"] = found["kept_tokens"]
                    row["first_after"] = compaction.first_call_after
                    costs = found.get("costs") or {}
                    row["first_after_cost_predicted"] = costs.get("first_call_after_usd")
                    row["first_after_cost"] = session.calls[before].cost_usd if before < len(session.calls) else None
                rows.append(row)
        start = before
    return rows


def holds(found, truth: int) -> bool:
    """Whether a calls_left_range holds the truth (a high end of None: no end in sight)."""
    low, high = found
    return low is not None and low <= truth and (high is None or truth <= high)


def close(predicted, truth: int) -> bool:
    return predicted is not None and abs(predicted - truth) <= max(3, 0.3 * truth)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--limit", type=int, default=None, help="at most this many logs")
    args = parser.parse_args(argv)
    logs = [path for folder in args.folders for path in sorted(folder.glob("*.jsonl"))
            if any(mark in path.read_bytes() for mark in MARKS)][:args.limit]
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as folder:
        for path in logs:
            rows += points(path, Path(folder))
            print(f"{path.name}: {len(rows)} points so far", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'file':<44} {'#':>2} {'before':>6} {'call':>5} {'calls_left':>10} {'range':>13} {'kept':>9} "
          f"{'first after':>11} {'error':>7}")
    for row in rows:
        kept = row.get("kept_tokens")
        after = row.get("first_after")
        error = f"{kept / after - 1:+.1%}" if kept and after else "-"
        print(f"{row['file'][-44:]:<44} {row['compaction']:>2} {row['before']:>6} {row['call']:>5} "
              f"{row['calls_left']!s:>10} {str(row['range']):>13} {kept or '-'!s:>9} {after or '-'!s:>11} {error:>7}")
    forecast_points = [r for r in rows if r["before"] in BEFORE]
    near = sum(close(r["calls_left"], r["before"]) for r in forecast_points)
    held = sum(1 for r in forecast_points if holds(r["range"], r["before"]))
    kept = [r for r in rows if r["before"] == 1 and r.get("kept_tokens") and r.get("first_after")]
    within = sum(abs(r["kept_tokens"] / r["first_after"] - 1) <= 0.10 for r in kept)
    total = len(forecast_points) or 1
    priced = [r for r in kept if r.get("first_after_cost") and r.get("first_after_cost_predicted")]
    if priced:
        ratios = sorted(r["first_after_cost_predicted"] / r["first_after_cost"] for r in priced)
        print(f"first call after: predicted / real cost, median {ratios[len(ratios) // 2]:.2f} over {len(priced)} "
              f"compactions (10th-90th percentile {ratios[len(ratios) // 10]:.2f}-{ratios[len(ratios) * 9 // 10]:.2f})")
    print(f"\n{len(logs)} logs, {len(forecast_points)} points at {', '.join(map(str, BEFORE))} calls before a compaction:"
          f" calls_left within max(3, 30 %) {near} ({near / total:.0%}); range holds the truth {held} "
          f"({held / total:.0%}); kept_tokens within 10 % of the first call after at {within} of {len(kept)} "
          f"compactions ({within / (len(kept) or 1):.0%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
