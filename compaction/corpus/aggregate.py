"""The corpus sweep's summary: per cell of the grid, the median and the 90th percentile over sessions of
every measure, as plain data.

Values arrive one session at a time and are kept as compact arrays of floats (8 bytes a value), the
only thing that grows with the corpus; the order in which sessions arrive does not change the result.
A session whose measure is None in a cell (no tool output to keep) does not count in that cell.
"""

import math
from array import array
from collections.abc import Sequence
from typing import Any

from compaction.measures.registry import MEASURES

STATISTICS = ("median", "p90")


def percentile(ordered: Sequence[float], share: float) -> float | None:
    """The value below which `share` of the sorted values lie, interpolated linearly between the two
    nearest ranks (numpy's default): the 0.9 percentile of 1..10 is 9.1."""
    if not ordered:
        return None
    position = (len(ordered) - 1) * share
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


class SweepAggregate:
    def __init__(self, x: tuple[str, Sequence[int]], y: tuple[str, Sequence[int]]):
        self.x_name, self.x_values = x[0], list(x[1])
        self.y_name, self.y_values = y[0], list(y[1])
        self.sessions = 0
        self._values: dict[tuple[str, int, int], array] = {}

    def add(self, cells: list[list[dict[str, Any]]]) -> None:
        """One session's sweep cells (SweepResult.cells: rows by y value, columns by x value)."""
        self.sessions += 1
        for row, line in enumerate(cells):
            for column, cell in enumerate(line):
                for name, value in cell.items():
                    if value is not None:
                        self._values.setdefault((name, row, column), array("d")).append(float(value))

    def measures(self) -> list[str]:
        present = {name for name, _, _ in self._values}
        return [name for name in MEASURES if name in present] + sorted(present - set(MEASURES))

    def grid(self, measure: str, statistic: str) -> list[list[float | None]]:
        """One statistic of one measure over the grid; statistic "median", "p90" or "sessions" (how many
        sessions had a value there)."""
        share = {"median": 0.5, "p90": 0.9}.get(statistic)
        grid = []
        for row in range(len(self.y_values)):
            line = []
            for column in range(len(self.x_values)):
                values = sorted(self._values.get((measure, row, column), ()))
                line.append(len(values) if share is None else percentile(values, share))
            grid.append(line)
        return grid

    def as_dict(self) -> dict[str, Any]:
        return {"x": {"name": self.x_name, "values": self.x_values},
                "y": {"name": self.y_name, "values": self.y_values},
                "sessions": self.sessions,
                "measures": {name: {statistic: self.grid(name, statistic) for statistic in (*STATISTICS, "sessions")}
                             for name in self.measures()}}
