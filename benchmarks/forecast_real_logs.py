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

from compaction.live.follower import Follower
from compaction.live.pace import HIGH, LOW, quantile
from compaction.live.session import CallUpdate

live_forecast = importlib.import_module("compaction.live.forecast")  # the module (the package names a function so)
BEFORE = (20, 10, 5)
MARKS = (b'"compact_boundary"', b'"type":"compacted"')


class Replays:
    """The replayed 10th and 90th percentiles of the calls left (before the range is widened) and how many
    replays there were, at the newest forecast: what benchmarks/forecast_calibration.py re-widens."""
    found: list[tuple[float, float, int]] = []

    @staticmethod
    def spread(found):
        Replays.found.append((quantile(found, LOW), quantile(found, HIGH), len(found)))
        return Replays.widen(found)

    widen = staticmethod(live_forecast.spread)


def follow(path: Path, folder: Path):
    """The forecast after each call (by call number) and the session, feeding `path` line by line."""
    target = folder / path.name
    target.write_bytes(b"")
    follower = Follower(target)
    forecasts: dict[int, dict] = {}
    live_forecast.spread = Replays.spread  # type: ignore[assignment]  # the agent's own rule's, first
    try:
        with open(target, "ab") as handle:
            for line in path.read_bytes().splitlines(keepends=True):
                handle.write(line)
                handle.flush()
                for reported in follower.updates():  # each forecast made right before it is yielded
                    replays, Replays.found = (Replays.found or [None])[0], []
                    if isinstance(reported.update, CallUpdate) and reported.forecast is not None:
                        found = reported.forecast.as_dict()
                        found["replays"] = replays
                        forecasts[reported.update.call.number] = found
    finally:
        live_forecast.spread = Replays.widen  # type: ignore[assignment]
    return forecasts, follower.session


def points(path: Path, folder: Path, every: bool = False) -> list[dict]:
    """The forecast at 20, 10, 5 and 1 calls before each of the agent's own compactions of `path`; `every`:
    of every compaction (a manual one too), as the fidelity benchmark pairs them."""
    forecasts, session = follow(path, folder)
    rows, start = [], 0
    for rank, compaction in enumerate(session.compactions if session else [], 1):
        # Codex's lines name no trigger; a manual one is the person's
        own = every or compaction.trigger in ("auto", None)
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
                       "range": [low, high], "replays": found.get("replays"), "threshold": found.get("threshold"),
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


def holds(found, truth: int) -> bool:
    """Whether a calls_left_range holds the truth (a high end of None: no end in sight)."""
    low, high = found
    return low is not None and low <= truth and (high is None or truth <= high)


def close(predicted, truth: int) -> bool:
    return predicted is not None and abs(predicted - truth) <= max(3, 0.3 * truth)


def shares(rows: list[dict]) -> str:
    """calls_left within max(3, 30 %) and the range holding the truth, over the points of `rows`."""
    near = sum(close(r["calls_left"], r["before"]) for r in rows)
    held = sum(holds(r["range"], r["before"]) for r in rows)
    total = len(rows) or 1
    return f"calls_left {near / total:.0%}, range {held / total:.0%} ({len(rows)} points)"


def median_width(rows: list[dict]) -> str:
    widths = sorted(r["range"][1] - r["range"][0] for r in rows if r["range"][0] is not None
                    and r["range"][1] is not None)
    open_ended = sum(1 for r in rows if r["range"][0] is not None and r["range"][1] is None)
    return f"{widths[len(widths) // 2] if widths else '-'} calls" + (f", {open_ended} with no high end" if open_ended else "")


def print_summary(rows: list[dict], logs: list[Path]) -> None:
    forecast_points = [r for r in rows if r["before"] in BEFORE]
    for distance in BEFORE:
        at = [r for r in forecast_points if r["before"] == distance]
        print(f"{distance} calls before: {shares(at)}; range median width {median_width(at)}")
    # the halves of the files (alternate files in name order): a figure tuned on one is checked on the other
    halves = {log.name: position % 2 for position, log in enumerate(logs)}
    for half in (0, 1):
        mine = [r for r in rows if r["before"] == 1 and r.get("kept_tokens") and r.get("first_after")
                and halves[r["file"]] == half]
        near = sum(abs(r["kept_tokens"] / r["first_after"] - 1) <= 0.10 for r in mine)
        print(f"half {half + 1} of the files: {shares([r for r in forecast_points if halves[r['file']] == half])}; "
              f"kept_tokens within 10 % at {near} of {len(mine)}")
    for agent, mark in (("Claude Code", "rollout-"), ("Codex", "rollout-")):
        codex = agent == "Codex"
        print(f"{agent}: {shares([r for r in forecast_points if (mark in r['file']) == codex])}")
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
          f"({held / total:.0%}), median width {median_width(forecast_points)}; kept_tokens within 10 % of the first "
          f"call after at {within} of {len(kept)} compactions ({within / (len(kept) or 1):.0%})")


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
