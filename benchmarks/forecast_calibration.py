"""The forecast's range (`calls_left_range`) calibrated out of sample, on public logs split by repository
(holdout.py): its widening fitted by leave-one-repository-out cross-validation on the tune part, then checked
on the held-out part, by agent and by distance (20, 10 and 5 calls before a compaction).

    .venv/bin/python benchmarks/forecast_calibration.py ROWS.json
    (ROWS.json: `benchmarks/forecast_real_logs.py DIR ... --json`)

A point's range is re-widened from the replays it was made of (their 10th and 90th percentiles, before the
widening: pace.py), so a widening can be tried without following the logs again. Two widenings are fitted,
one for a session whose own history holds fewer than pace.SHORT growths, one for the others; each is the
smallest that holds the truth at 80 % of the points it is fitted on. Cross-validation: for each repository
of the tune part, fitted on the tune part's other repositories and checked on its points.
The point (`calls_left`) is re-scaled the same way from the replays' median: pace.PACE, the factor that
brings the most points within max(3, 30 %) of the truth, fitted and cross-validated as the widenings.
"""

import argparse
import json
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # holdout.py, beside this script

from holdout import PARTS, part_of, repository_of  # noqa: E402

from compaction.live import pace  # noqa: E402

BEFORE = (20, 10, 5)
TARGET = 0.80
GRID = tuple(step / 100 for step in range(0, 301, 2))
PACES = tuple(step / 100 for step in range(40, 121))
AGENTS = {"claude-code": "Claude Code", "codex": "Codex", "gemini-cli": "Gemini CLI"}


def is_short(row: dict) -> bool:
    replays = row.get("replays")
    return replays is not None and replays[2] < pace.SHORT


def widened(row: dict, drift: float) -> tuple[int | None, int | None]:
    """The point's range with `drift` in place of the one it was made with (a point with no replays keeps its
    range: [1, 1] past the threshold, no high end when the session is not growing, none before a growth)."""
    replays = row.get("replays")
    if replays is None:
        low, high = row["range"]
        return low, high
    return pace.widen(replays[0], replays[1], drift)


def holds(found: Sequence, truth: int) -> bool:
    low, high = found
    return low is not None and low <= truth and (high is None or truth <= high)


def close(predicted, truth: int) -> bool:
    return predicted is not None and abs(predicted - truth) <= max(3, 0.3 * truth)


def point(row: dict, factor: float) -> int | None:
    """The point with `factor` in place of pace.PACE (past the threshold it stays 1; rows written before the
    median was kept re-scale the point as it was made)."""
    replays = row.get("replays")
    if replays is None or row["calls_left"] is None:
        return row["calls_left"]
    median = replays[3] if len(replays) > 3 else row["calls_left"]
    return pace.scaled(median, factor)


def fit_pace(rows: list[dict]) -> float:
    """The factor of PACES that brings the most points of `rows` within max(3, 30 %) (the nearest 1 of a tie)."""
    if not rows:
        return pace.PACE
    return max(PACES, key=lambda f: (sum(close(point(r, f), r["before"]) for r in rows), -abs(f - 1)))


def covered(rows: list[dict], drifts: tuple[float, float]) -> int:
    return sum(holds(widened(r, drifts[0] if is_short(r) else drifts[1]), r["before"]) for r in rows)


def fit_one(rows: list[dict]) -> float:
    """The smallest drift of GRID whose ranges hold the truth at TARGET of `rows` (the largest if none does)."""
    if not rows:
        return pace.DRIFT
    for drift in GRID:
        if sum(holds(widened(r, drift), r["before"]) for r in rows) >= TARGET * len(rows):
            return drift
    return GRID[-1]


def fit(rows: list[dict]) -> tuple[float, float]:
    """(drift for a short history, drift for the others), each fitted on its own points; a short history never
    gets less than the others."""
    long = fit_one([r for r in rows if not is_short(r)])
    short = fit_one([r for r in rows if is_short(r)])
    return max(short, long), long


def cross_validated(rows: list[dict]) -> list[tuple[dict, tuple[int | None, int | None]]]:
    """Each tune point with the range and the point a fit that left its repository out gives it."""
    repositories = sorted({r["repository"] for r in rows})
    found = []
    for repository in repositories:
        others = [r for r in rows if r["repository"] != repository]
        drifts, factor = fit(others), fit_pace(others)
        found += [({**r, "calls_left": point(r, factor)}, widened(r, drifts[0] if is_short(r) else drifts[1]))
                  for r in rows if r["repository"] == repository]
    return found


def width_words(ranges: list[tuple]) -> str:
    widths = [high - low for low, high in ranges if low is not None and high is not None]
    open_ended = sum(1 for low, high in ranges if low is not None and high is None)
    return (f"{statistics.median_low(widths)}" if widths else "-") + (f" ({open_ended} open)" if open_ended else "")


def table(pairs: list[tuple[dict, tuple]], title: str, groups: Callable[[dict], str]) -> None:
    """Coverage, point forecast and median width per group and distance."""
    print(f"\n{title}")
    print(f"{'group':<26} {'before':>6} {'points':>6} {'range holds':>11} {'median width':>12} {'point within':>12}")
    keys = sorted({groups(r) for r, _ in pairs})
    for key in keys:
        for distance in (*BEFORE, "all"):
            mine = [(r, found) for r, found in pairs if groups(r) == key and distance in (r["before"], "all")]
            if not mine:
                continue
            held = sum(holds(found, r["before"]) for r, found in mine)
            near = sum(close(r["calls_left"], r["before"]) for r, _ in mine)
            print(f"{key:<26} {distance!s:>6} {len(mine):>6} {held / len(mine):>10.0%} "
                  f"{width_words([found for _, found in mine]):>12} {near / len(mine):>11.0%}")


def annotate(rows: list[dict]) -> list[dict]:
    """The forecast points (20, 10 and 5 calls before) with their repository, part and agent."""
    found = []
    for row in rows:
        if row["before"] not in BEFORE:
            continue
        path = Path(row.get("path") or row["file"])
        found.append({**row, "repository": repository_of(path) or row["file"], "part": part_of(path),
                      "agent_title": AGENTS.get(row.get("agent") or "", row.get("agent") or "-")})
    return found


def report(rows: list[dict]) -> tuple[float, float]:
    """Prints the calibration and the figures on both parts; returns the drifts fitted on the tune part."""
    points = annotate(rows)
    tune = [r for r in points if r["part"] == PARTS[0]]
    held_out = [r for r in points if r["part"] == PARTS[1]]
    drifts, factor = fit(tune), fit_pace(tune)
    print(f"pace fitted on the tune part: {factor:.2f}; now in pace.py: {pace.PACE:.2f}")
    print(f"drift fitted on the tune part ({len(tune)} points, {len({r['repository'] for r in tune})} repositories): "
          f"{drifts[1]:.2f} ({drifts[0]:.2f} under {pace.SHORT} growths of history); now in pace.py: "
          f"{pace.DRIFT:.2f} ({pace.SHORT_DRIFT:.2f})")
    kind = lambda r: f"{r['agent_title']}, {'short' if is_short(r) else 'long'} history"  # noqa: E731
    as_made = lambda part: [(r, tuple(r["range"])) for r in points if r["part"] == part]  # noqa: E731
    table(cross_validated(tune), "tune part, leave one repository out (each repository fitted without it, the "
          "pace too):",
          lambda r: r["agent_title"])
    for part in PARTS:
        table(as_made(part), f"{part} part, the ranges as the forecast made them:", lambda r: r["agent_title"])
    refit = [(r, widened(r, drifts[0] if is_short(r) else drifts[1])) for r in held_out]
    table(refit, "held-out part, widened with the drifts fitted on the tune part:", kind)
    table(refit, "held-out part, every agent:", lambda r: "every agent")
    print_pace(held_out, factor)
    return drifts


def print_pace(rows: list[dict], factor: float) -> None:
    """The point within max(3, 30 %) on `rows`, as the forecast made it and with the pace fitted elsewhere."""
    def shares(of) -> str:
        return "/".join(f"{sum(close(of(r), d) for r in mine) / len(mine):.0%}" if (mine := [
            r for r in rows if r["before"] == d]) else "-" for d in BEFORE)
    print(f"\nheld-out part, point within max(3, 30 %) at {'/'.join(map(str, BEFORE))}: as made (pace "
          f"{pace.PACE:.2f}) {shares(lambda r: r['calls_left'])}; with the pace fitted on the tune part "
          f"({factor:.2f}) {shares(lambda r: point(r, factor))}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", type=Path)
    args = parser.parse_args(argv)
    report(json.loads(args.rows.read_text()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
