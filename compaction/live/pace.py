"""How many calls a session needs to grow by a gap, from its own recent growths, replayed.

A session grows in steps of very different sizes: most calls add a few hundred tokens, now and then one
adds a file of 20,000. A mean of the recent steps says the gap closes soon when one big step is in the
window; a median says never. Instead, the recent growths themselves are the scenarios: starting from each
of them in turn, the session is made to grow by them in their order (round again from the oldest after
the newest), and the calls each start takes to close the gap are counted. The middle of those counts,
brought in by PACE, is the point (`calls_left`); their 10th and 90th percentiles the range, widened by
DRIFT, the part of a session's future the recent past does not show (a burst of reads it has not had yet,
a quiet stretch). Sessions grow faster as they near a compaction than their recent past says (more files
read, longer outputs): the replayed middle is late by a typical factor, which PACE takes back.

A session with fewer than SHORT growths of its own has too little history to hold 80 %: its range is
widened by SHORT_DRIFT instead, and the forecast says so (forecast.range_label). Both widenings are fitted
on the tune part of the public logs split by repository, by leaving one repository out, and checked on the
held-out part (benchmarks/forecast_calibration.py, at 20, 10 and 5 calls before each compaction); PACE
too, the factor under which most points come within max(3, 30 %) of the truth.
"""

import math
from collections.abc import Sequence

DRIFT = 0.84  # the range's ends move by exp(DRIFT) beyond the replayed 10th and 90th percentiles
SHORT = 10  # growths of a session's own history under which its range is not 80 %
SHORT_DRIFT = 0.96  # the widening of such a session's range
LOW, HIGH = 0.1, 0.9
PACE = 1.0  # the replayed middle's calls beyond the next one are scaled by this for the point


def passages(gap: float, pending: int, growths: Sequence[int]) -> list[int] | None:
    """For each start among `growths` (a drop counted as no growth), the calls until the context has grown
    by `gap`: the next call adds its growth or what was written since (`pending`), whichever is more, each
    later one the growths that follow in order. Sorted; None when none of the growths is positive."""
    steps = [max(step, 0) for step in growths]
    cycle = sum(steps)
    if cycle <= 0:
        return None
    found = []
    for start in range(len(steps)):
        need = gap - max(steps[start], pending)
        calls = 1
        if need > 0:
            rounds = int(need // cycle) - 1  # whole rounds at once; the last one is walked
            if rounds > 0:
                calls += rounds * len(steps)
                need -= rounds * cycle
            position = start
            while need > 0:
                position = (position + 1) % len(steps)
                need -= steps[position]
                calls += 1
        found.append(calls)
    return sorted(found)


def quantile(values: Sequence[int], share: float) -> float:
    """The `share` quantile of sorted `values`, interpolated between neighbours."""
    at = share * (len(values) - 1)
    below = int(at)
    above = min(below + 1, len(values) - 1)
    return values[below] + (values[above] - values[below]) * (at - below)


def middle(found: Sequence[int]) -> int:
    """The point: the replays' median, its calls beyond the next one scaled by PACE."""
    return scaled(quantile(found, 0.5), PACE)


def scaled(median: float, pace: float) -> int:
    """A replayed median of calls brought in by `pace` (1 stays 1: not before the next call)."""
    return max(1, int(1 + (median - 1) * pace + 0.5))


def drift(growths: int) -> float:
    """The widening of the range of a session with `growths` growths of history."""
    return SHORT_DRIFT if growths < SHORT else DRIFT


def spread(found: Sequence[int]) -> tuple[int, int]:
    """[low, high] of the calls left, about 80 %: the replayed 10th and 90th percentiles (one replay per
    growth of history), widened by the drift (1 stays 1: the compaction cannot come before the next call)."""
    return widen(quantile(found, LOW), quantile(found, HIGH), drift(len(found)))


def widen(low: float, high: float, by: float) -> tuple[int, int]:
    """The replayed percentiles `low` and `high` moved apart by exp(`by`)."""
    return max(1, math.floor(1 + (low - 1) * math.exp(-by))), math.ceil(1 + (high - 1) * math.exp(by))
