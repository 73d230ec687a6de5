"""A sweep: replay one conversation over a grid of two settings and measure every cell.

Every measure is kept per cell (compaction.measures.registry), so a page can switch the measure shown
without replaying. The cells are computed here (grid.py) or, with an executor of several workers, one
line of the grid per task (spread.py); the cells are the same either way.
"""

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from compaction.measures.cost import Prices
from compaction.measures.registry import measure as check_measure
from compaction.measures.tradeoff import pareto_front
from compaction.model.history import prepare
from compaction.model.settings import DEFAULTS, Settings
from compaction.replay.grid import SweepStore, local_cells, sweep_grid
from compaction.replay.records import MODEL_WINDOW_TOKENS
from compaction.replay.spread import sweep_spread
from compaction.storage.outputs import OutputStore
from compaction.strategies import SETTINGS_READ, Built, StepFunction, resolve
from compaction.summarizers import OfflineSummarizer, Summarizer


@dataclass
class SweepResult:
    x_name: str
    x_values: list[int]
    y_name: str
    y_values: list[int]
    measure: str
    strategy: str
    base_settings: Settings
    cells: list[list[dict[str, Any]]] = field(default_factory=list)  # cells[row of y][column of x]
    replays: int = 0  # cells actually replayed; the others reused an identical replay

    def grid(self, measure: str | None = None) -> list[list[Any]]:
        """One measure over the grid, rows by y value, columns by x value."""
        name = check_measure(measure or self.measure).name
        return [[cell[name] for cell in row] for row in self.cells]

    def trade_off_front(self, cost: str = "cost_usd", loss: str = "blind_references") -> set[tuple[int, int]]:
        """(row, column) of the cells no other cell beats on both `cost` and `loss` (the Pareto front)."""
        cells = [(r, c) for r in range(len(self.y_values)) for c in range(len(self.x_values))]

        def lower_is_better(name: str, value):
            return value if value is None or check_measure(name).better == "lower" else -value

        points = [(lower_is_better(cost, self.cells[r][c][cost]), lower_is_better(loss, self.cells[r][c][loss]))
                  for r, c in cells]
        return {cells[i] for i in pareto_front(points)}

    def settings_at(self, row: int, column: int) -> Settings:
        return self.base_settings.replace(**{self.x_name: self.x_values[column], self.y_name: self.y_values[row]})

    def as_dict(self) -> dict[str, Any]:
        return {"x": {"name": self.x_name, "values": self.x_values},
                "y": {"name": self.y_name, "values": self.y_values},
                "measure": self.measure, "strategy": self.strategy, "replays": self.replays,
                "grid": self.grid(), "cells": self.cells,
                "trade_off_front": sorted([row, column] for row, column in self.trade_off_front())}


def sweep(conversation, x: tuple[str, Sequence[int]], y: tuple[str, Sequence[int]],
          base_settings: Settings | None = None, measure: str = "peak_tokens",
          progress: Callable[[int, int], None] | None = None, strategy: "str | StepFunction" = "pipeline",
          model_window_tokens: int = MODEL_WINDOW_TOKENS, summarizer: Summarizer | None = None,
          store: OutputStore | None = None, prices: Prices | None = None, executor=None,
          cancelled: Callable[[], bool] | None = None) -> SweepResult:
    """Replay `conversation` for every (x, y) pair of settings; `progress(done, total)` after each cell.

    `x` and `y` are (setting name, values), e.g. ("context_limit", [20_000, 50_000]). Bad names or
    values raise SettingsError before any replay runs. With an `executor` of several workers
    (compaction.replay.parallel), the grid's lines run on them (spread.py) with the same cells;
    a caller's own step function or summariser, which need not pickle, runs here.
    """
    base = base_settings or DEFAULTS
    x_name, x_values, y_name, y_values, grid = sweep_grid(base, x, y)
    name, step = resolve(strategy)
    result = SweepResult(x_name, x_values, y_name, y_values, check_measure(measure).name, name, base)
    prepared = prepare(conversation)
    store = store or SweepStore(tempfile.mkdtemp(prefix="compaction-sweep-"))
    # a named or built strategy says which settings it reads; a caller's own function may read any
    known = isinstance(strategy, str | Built)
    read = (SETTINGS_READ.get(name) if isinstance(strategy, str) else strategy.settings_read) if known else None
    spread = executor is not None and executor.workers > 1 and known and summarizer is None \
        and max(len(x_values), len(y_values)) > 1  # _check_axis refused empty axes
    if spread:
        result.cells, result.replays = sweep_spread(prepared, (x_name, x_values), (y_name, y_values), base,
                                                    strategy, model_window_tokens, prices, executor, progress, cancelled)
        return result
    summarizer = summarizer or OfflineSummarizer()
    # a step function of the caller's may read CONTEXT_LIMIT without saying so: replay every cell
    result.cells, result.replays = local_cells(prepared, grid, step, read, known, store, summarizer,
                                               model_window_tokens, prices, progress)
    return result
