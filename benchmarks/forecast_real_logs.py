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
import importlib
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # holdout.py and forecast_calibration.py, beside it

from forecast_calibration import BEFORE, report  # noqa: E402
from holdout import PARTS, part_of  # noqa: E402

from compaction.live.follower import Follower
from compaction.live.pace import HIGH, LOW, quantile
from compaction.live.session import CallUpdate

live_forecast = importlib.import_module("compaction.live.forecast")  # the module (the package names a function so)
MARKS = (b'"compact_boundary"', b'"type":"compacted"')


class Replays:
    """The replayed 10th and 90th percentiles of the calls left (before the range is widened), how many
    replays there were and their median (before PACE), at the newest forecast: what
    benchmarks/forecast_calibration.py re-widens and re-scales."""
    found: list[tuple[float, float, int, float]] = []

    gaps: list[tuple[float, int, list[int]]] = []  # what passages() was asked: (gap, pending, growths)

    @staticmethod
    def passages(gap, pending, growths):
        Replays.gaps.append((gap, pending, list(growths)))
        return Replays.walk(gap, pending, growths)

    walk = staticmethod(live_forecast.passages)

    @staticmethod
    def spread(found):
        Replays.found.append((quantile(found, LOW), quantile(found, HIGH), len(found), quantile(found, 0.5)))
        return Replays.widen(found)

    widen = staticmethod(live_forecast.spread)


def follow(path: Path, folder: Path):
    """The forecast after each call (by call number) and the session, feeding `path` line by line."""
    target = folder / path.name
    target.write_bytes(b"")
    follower = Follower(target)
    forecasts: dict[int, dict] = {}
    live_forecast.spread = Replays.spread  # type: ignore[assignment]  # the agent's own rule's, first
    live_forecast.passages = Replays.passages  # type: ignore[assignment]
    try:
        with open(target, "ab") as handle:
            for line in path.read_bytes().splitlines(keepends=True):
                handle.write(line)
                handle.flush()
                for reported in follower.updates():  # each forecast made right before it is yielded
                    replays, Replays.found = (Replays.found or [None])[0], []
                    asked, Replays.gaps = (Replays.gaps or [None])[0], []
                    if isinstance(reported.update, CallUpdate) and reported.forecast is not None:
                        found = reported.forecast.as_dict()
                        found["replays"], found["asked"] = replays, asked
                        forecasts[reported.update.call.number] = found
    finally:
        live_forecast.spread = Replays.widen  # type: ignore[assignment]
        live_forecast.passages = Replays.walk  # type: ignore[assignment]
    return forecasts, follower.session


def points(path: Path, folder: Path, every: bool = False) -> list[dict]:
    """The forecast at 20, 10, 5 and 1 calls before each of the agent's own compactions of `path`; `every`:
    of every compaction (a manual one too), as the fidelity benchmark pairs them."""
    forecasts, session = follow(path, folder)
    rows, start = [], 0
    for rank, compaction in enumerate(session.compactions if session else [], 1):
        # a manual one is the person's (Codex's reader infers it: agents/codex/triggers.py)
        own = every or compaction.trigger != "manual"
        before = compaction.calls_before
        if own and before > start:
            for distance in (*BEFORE, 1):
                call = before + 1 - distance  # the call after which `distance` calls were left
                found = forecasts.get(call)
                if call <= start or found is None:
                    continue
                low, high = (found.get("calls_left_range") or [None, None])
                row = {"file": path.name, "path": str(path), "agent": session.agent, "compaction": rank,
                       "calls_before": before, "before": distance, "call": call, "calls_left": found["calls_left"],
                       "range": [low, high], "replays": found.get("replays"), "asked": found.get("asked"), "threshold": found.get("threshold"),
                       "tokens_now": found.get("tokens_now"), "pre_tokens": compaction.pre_tokens,
                       "context_before": compaction.context_before, "version": session.facts.get("version"),
                       "window": session.facts.get("window")}
                if distance == 1:
                    row["kept_tokens"] = found["kept_tokens"]
                    row["first_after"] = compaction.first_call_after
                    costs = found.get("costs") or {}
                    row["first_after_cost_predicted"] = costs.get("first_call_after_usd")
                    row["first_after_cost"] = session.calls[before].cost_usd if before < len(session.calls) else None
                rows.append(row)
        start = before
    return rows


def print_summary(rows: list[dict], logs: list[Path]) -> None:
    """By part of the split by repository (holdout.py), agent and distance: the point forecast, the range as
    the forecast made it and as the widening fitted on the tune part makes it (forecast_calibration.py), and
    kept_tokens against the first call after."""
    report(rows)
    kept = [r for r in rows if r["before"] == 1 and r.get("kept_tokens") and r.get("first_after")]
    for part in PARTS:
        mine = [r for r in kept if part_of(Path(r.get("path") or r["file"])) == part]
        within = sum(abs(r["kept_tokens"] / r["first_after"] - 1) <= 0.10 for r in mine)
        print(f"{part} part: kept_tokens within 10 % of the first call after at {within} of {len(mine)} compactions")
    priced = [r for r in kept if r.get("first_after_cost") and r.get("first_after_cost_predicted")]
    if priced:
        ratios = sorted(r["first_after_cost_predicted"] / r["first_after_cost"] for r in priced)
        print(f"first call after: predicted / real cost, median {ratios[len(ratios) // 2]:.2f} over {len(priced)} "
              f"compactions (10th-90th percentile {ratios[len(ratios) // 10]:.2f}-{ratios[len(ratios) * 9 // 10]:.2f})")
    print(f"\n{len(logs)} logs, {sum(1 for r in rows if r['before'] in BEFORE)} points")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--limit", type=int, default=None, help="at most this many logs")
    args = parser.parse_args(argv)
    logs = [path for folder in args.folders for path in sorted(folder.rglob("*.jsonl")) if "subagents" not in path.parts
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
    print_summary(rows, logs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
