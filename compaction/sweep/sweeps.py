"""A sweep: replay one conversation over a grid of two settings or parameters of the strategy (or a line
of one) and measure every cell.

Every measure is kept per cell (compaction.measures.registry), so a page can switch the measure shown
without replaying. The cells are computed here (grid.py) or, with an executor of several workers, one
line of the grid per task (spread.py); the cells are the same either way.
"""

import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from compaction.errors import CompactionError
from compaction.measures.registry import MEASURES
from compaction.measures.registry import measure as check_measure
from compaction.measures.tradeoff import pareto_front
from compaction.model.history import prepare
from compaction.model.settings import DEFAULTS, Settings
from compaction.replay.loop import incremental_form
from compaction.replay.options import ReplayOptions, options_from
from compaction.strategies import SETTINGS_READ, Built, StepFunction, resolve
from compaction.summarizers import OfflineSummarizer
from compaction.sweep.branches import BranchCounts
from compaction.sweep.grid import PARAMETER, SETTING, SweepStore, iter_local_cells, strategy_spec, sweep_grid
from compaction.sweep.spread import spread_lines

NOT_DONE = {name: None for name in MEASURES}  # a cell still to do while the sweep streams


@dataclass
class SweepResult:
    x_name: str
    x_values: list[Any]
    y_name: str | None  # None: a line, one row of cells along x
    y_values: list[Any]
    measure: str
    strategy: str
    base_settings: Settings
    cells: list[list[dict[str, Any]]] = field(default_factory=list)  # cells[row of y][column of x]
    replays: int = 0  # distinct replays made; the other cells had the same outcome as one of them
    cells_done: int = 0  # while a sweep streams (sweep_stream): the cells done so far
    by_kernel: int = 0  # cells the columnar kernel computed (compaction/sweep/kernel), no replay needed
    by_threshold: int = 0  # cells of an agent's threshold run by the loop together until they parted (thresholds.py)
    left_to_loop: dict[tuple[int, int], str] = field(default_factory=dict)  # (row, column): why the loop ran it
    parameters: tuple[str, ...] = ()  # the axes that are the strategy's own parameters (the others: settings)
    base_params: dict[str, Any] = field(default_factory=dict)  # the strategy's parameters as given

    @property
    def rows(self) -> int:
        return len(self.y_values) if self.y_name is not None else 1

    @property
    def cell_count(self) -> int:
        return len(self.x_values) * self.rows

    def line(self, measure: str | None = None) -> list[Any]:
        """One measure along x, for a sweep of one axis (the first row of a grid)."""
        return self.grid(measure)[0]

    def grid(self, measure: str | None = None) -> list[list[Any]]:
        """One measure over the grid, rows by y value, columns by x value."""
        name = check_measure(measure or self.measure).name
        return [[cell[name] for cell in row] for row in self.cells]

    def trade_off_front(self, cost: str = "cost_usd", loss: str = "blind_references") -> set[tuple[int, int]]:
        """(row, column) of the cells no other cell beats on both `cost` and `loss` (the Pareto front)."""
        cells = [(r, c) for r in range(self.rows) for c in range(len(self.x_values))]

        def lower_is_better(name: str, value):
            return value if value is None or check_measure(name).better == "lower" else -value

        points = [(lower_is_better(cost, self.cells[r][c][cost]), lower_is_better(loss, self.cells[r][c][loss]))
                  for r, c in cells]
        return {cells[i] for i in pareto_front(points)}

    def values_at(self, row: int, column: int) -> dict[str, Any]:
        """The axes' values at a cell, by name."""
        values = {self.x_name: self.x_values[column]}
        if self.y_name is not None:
            values[self.y_name] = self.y_values[row]
        return values

    def settings_at(self, row: int, column: int) -> Settings:
        return self.base_settings.replace(**{name: value for name, value in self.values_at(row, column).items()
                                             if name not in self.parameters})

    def params_at(self, row: int, column: int) -> dict[str, Any]:
        """The strategy's parameters at a cell: those given, with the axes that are parameters."""
        return {**self.base_params, **{name: value for name, value in self.values_at(row, column).items()
                                       if name in self.parameters}}

    def _axis(self, name: str | None, values: list[Any]) -> dict[str, Any] | None:
        return None if name is None else {"name": name, "values": values,
                                           "kind": PARAMETER if name in self.parameters else SETTING}

    def as_dict(self) -> dict[str, Any]:
        return {"x": self._axis(self.x_name, self.x_values), "y": self._axis(self.y_name, self.y_values),
                "measure": self.measure, "strategy": self.strategy, "replays": self.replays,
                "by_kernel": self.by_kernel, "by_threshold": self.by_threshold,
                "left_to_loop": [[row, column, why] for (row, column), why in sorted(self.left_to_loop.items())],
                "grid": self.grid(), "cells": self.cells,
                "trade_off_front": sorted([row, column] for row, column in self.trade_off_front())}


def sweep(conversation, x: tuple[str, Sequence[Any]], y: tuple[str, Sequence[Any]] | None = None,
          base_settings: Settings | None = None, *, measure: str = "peak_tokens",
          strategy: "str | StepFunction" = "pipeline", progress: Callable[[int, int], None] | None = None,
          cancelled: Callable[[], bool] | None = None, options: ReplayOptions | None = None,
          **changes: Any) -> SweepResult:
    """Replay `conversation` for every (x, y) pair of values; `progress(done, total)` after each cell.

    `x` and `y` are (name, values): a setting, e.g. ("context_limit", [20_000, 50_000]), or a parameter
    of `strategy`, e.g. ("trigger", [100_000, 200_000]) with strategy "anthropic-compact" (checked by
    its spec; a built strategy's own parameters are the base). `y` None sweeps `x` alone: a line, one
    row of cells. Bad names or values raise SettingsError before any replay runs. What rides along is
    `options` (options.py), or its fields given one by one (`executor=`, `prices=`, `model_window_tokens=`, ...). With an executor
    of several workers (compaction.sweep.parallel), the grid's lines run on them (spread.py) with the
    same cells; a caller's own step function or summariser, which need not pickle, runs here.
    """
    result = None
    for result in sweep_stream(conversation, x, y, base_settings, measure=measure, strategy=strategy,
                               cancelled=cancelled, options=options_from(options, changes)):
        if progress is not None:
            progress(result.cells_done, result.cell_count)
    if result is None or result.cells_done < result.cell_count:
        raise CompactionError("the sweep was cancelled")
    return result


def sweep_stream(conversation, x: tuple[str, Sequence[Any]], y: tuple[str, Sequence[Any]] | None = None,
                 base_settings: Settings | None = None, *, measure: str = "peak_tokens",
                 strategy: "str | StepFunction" = "pipeline", cancelled: Callable[[], bool] | None = None,
                 options: ReplayOptions | None = None, **changes: Any) -> Iterator[SweepResult]:
    """The sweep of `sweep`, cell by cell: the same SweepResult is yielded each time cells are done (one
    cell here, one line of the grid from a worker), the cells still to do holding None for every measure
    (`cells_done` says how many are done); the last one yielded is the whole grid. A grid whose settings
    cannot be raises SettingsError before the first. Nothing is yielded after `cancelled()` is true."""
    base = base_settings or DEFAULTS
    chosen = options_from(options, changes)
    x_axis, y_axis, grid = sweep_grid(base, x, y, strategy)
    name, step = resolve(strategy)
    axes = [axis for axis in (x_axis, y_axis) if axis is not None]
    result = SweepResult(x_axis.name, x_axis.values, y_axis.name if y_axis else None, y_axis.values if y_axis else [],
                         check_measure(measure).name, name, base, [[dict(NOT_DONE) for _ in row] for row in grid],
                         parameters=tuple(axis.name for axis in axes if axis.kind == PARAMETER),
                         base_params=strategy_spec(strategy)[1])
    prepared = prepare(conversation)
    # a named or built strategy says which settings it reads; a caller's own function may read any
    named = strategy if isinstance(strategy, str | Built) else None
    known = named is not None
    read = None if named is None else SETTINGS_READ.get(name) if isinstance(named, str) else named.settings_read
    executor = chosen.executor
    # imported here: numpy is loaded with the kernel, which a replay does not need
    from compaction.sweep.kernel import refusal

    # the kernel's cells take less than starting a worker's line: the workers only serve the loop
    outside_kernel = refusal(prepared, incremental_form(step, prepared) if known else None, chosen.summarizer)
    spread = executor is not None and executor.workers > 1 and known and chosen.summarizer is None \
        and result.cell_count > 1 and outside_kernel is not None  # _check_axis refused empty axes
    if spread and named is not None and outside_kernel is not None:
        result.left_to_loop = dict.fromkeys(((r, c) for r in range(result.rows) for c in range(len(x_axis.values))),
                                            outside_kernel)
        for done, line, replays in spread_lines(prepared, (x_axis.name, x_axis.values),
                                                (y_axis.name, y_axis.values) if y_axis else None, base, named,
                                                chosen, cancelled):
            for row, column, cell in line:
                result.cells[row][column] = cell
            result.cells_done, result.replays = done, result.replays + replays
            yield result
        return
    stopped = cancelled or (lambda: False)
    counts = BranchCounts()
    here = chosen.given(store=chosen.store or SweepStore(tempfile.mkdtemp(prefix="compaction-sweep-")),
                        summarizer=chosen.summarizer or OfflineSummarizer(), keep_histories=False)
    # a step function of the caller's may read CONTEXT_LIMIT without saying so: replay every cell
    for row, column, cell in iter_local_cells(prepared, grid, step, read, known, here, counts):
        if stopped():
            return
        result.cells[row][column] = cell
        result.cells_done += 1
        result.replays, result.by_kernel, result.left_to_loop = counts.replays, counts.by_kernel, counts.left_to_loop
        result.by_threshold = counts.by_threshold
        yield result
