"""A sweep: replay one conversation over a grid of two settings and measure every cell.

Every measure is kept per cell, so a page can switch the measure shown without replaying. What is
shared between cells: the prepared conversation (sizes and caches), one output store (an output
persisted by one cell is not written again by the next) and whole replays: cells that differ only
in settings the strategy does not read share one replay, and a replay in which the history never went
over CONTEXT_LIMIT is the same for every limit above its largest size.
"""

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from compaction.errors import SettingsError
from compaction.measures.cost import DEFAULT_PRICES, Prices
from compaction.measures.tradeoff import pareto_front
from compaction.model.history import prepare
from compaction.model.settings import DEFAULTS, LIMITS, Settings
from compaction.replay.loop import MODEL_WINDOW_TOKENS, ReplayResult, replay
from compaction.storage.outputs import OutputStore
from compaction.strategies import SETTINGS_READ, Built, StepFunction, resolve
from compaction.summarizers import OfflineSummarizer, Summarizer

MEASURES = {
    "peak_tokens": "Largest context sent (estimated tokens)",
    "tokens_sent": "Tokens sent over the whole session",
    "saved_share": "Share of tokens saved against no compaction",
    "cost_usd": "Cost with prompt caching (US$)",
    "cost_usd_no_cache": "Cost without prompt caching (US$)",
    "cache_hit_rate": "Share of input read from the cache",
    "blind_references": "Blind references (terms the model used but no longer saw)",
    "artifact_retention": "Share of files, errors and constraints still sent at the end",
    "summaries": "Summaries written",
    "tool_output_kept": "Share of tool output the model saw whole",
    "reactive": "Reactive compactions",
    "peak_chars": "Largest context sent (characters)",
}
# Which way is better for each measure: "lower" or "higher" (the trade-off view and the colour scales).
BETTER = {"peak_tokens": "lower", "tokens_sent": "lower", "saved_share": "higher", "cost_usd": "lower",
          "cost_usd_no_cache": "lower",
          "cache_hit_rate": "higher", "blind_references": "lower", "artifact_retention": "higher",
          "summaries": "lower", "tool_output_kept": "higher", "reactive": "lower", "peak_chars": "lower"}
# The unit of the measures that are not counts, for whoever writes a value out
SHARES = frozenset({"saved_share", "cache_hit_rate", "artifact_retention", "tool_output_kept"})
DOLLARS = frozenset({"cost_usd", "cost_usd_no_cache"})


def measure_text(value, measure: str, share_digits: int = 1) -> str:
    """A measure's value in its unit: a share in percent, dollars with cents, else a count."""
    if value is None:
        return "-"
    if measure in SHARES:
        return f"{value:.{share_digits}%}"
    if measure in DOLLARS:
        return f"${value:,.2f}"
    return f"{value:,.0f}" if isinstance(value, float) and value.is_integer() else f"{value:,}"


def cell_measures(result: ReplayResult) -> dict[str, Any]:
    totals = result.totals
    return {name: totals[name] for name in MEASURES}


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
        name = check_measure(measure or self.measure)
        return [[cell[name] for cell in row] for row in self.cells]

    def trade_off_front(self, cost: str = "cost_usd", loss: str = "blind_references") -> set[tuple[int, int]]:
        """(row, column) of the cells no other cell beats on both `cost` and `loss` (the Pareto front)."""
        cells = [(r, c) for r in range(len(self.y_values)) for c in range(len(self.x_values))]

        def lower_is_better(name: str, value):
            return value if value is None or BETTER[check_measure(name)] == "lower" else -value

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


def check_measure(measure: str) -> str:
    if measure not in MEASURES:
        raise SettingsError(f"unknown measure {measure!r}; choose one of {', '.join(MEASURES)}")
    return measure


def _check_axis(axis: tuple[str, Sequence[int]], label: str) -> tuple[str, list[int]]:
    try:
        name, values = axis
    except (TypeError, ValueError):
        raise SettingsError(f"{label} must be (setting name, values), got {axis!r}") from None
    if name not in LIMITS:
        raise SettingsError(f"{label}: unknown setting {name!r}; choose one of {', '.join(LIMITS)}")
    values = list(values)
    if not values:
        raise SettingsError(f"{label}: {name} needs at least one value")
    return name, values


def sweep_grid(base: Settings, x: tuple[str, Sequence[int]], y: tuple[str, Sequence[int]]
               ) -> tuple[str, list[int], str, list[int], list[list[Settings]]]:
    """The checked axes (name and values of each) and every cell's settings (rows: y values); a
    SettingsError naming the axis or the cell that cannot be, before any work."""
    x_name, x_values = _check_axis(x, "x")
    y_name, y_values = _check_axis(y, "y")
    if x_name == y_name:
        raise SettingsError(f"x and y must be two different settings, both are {x_name}")
    return x_name, x_values, y_name, y_values, _grid_settings(base, x_name, x_values, y_name, y_values)


def _grid_settings(base: Settings, x_name: str, x_values: list[int], y_name: str, y_values: list[int]
                   ) -> list[list[Settings]]:
    rows = []
    for y_value in y_values:
        row = []
        for x_value in x_values:
            try:
                row.append(base.replace(**{x_name: x_value, y_name: y_value}))
            except SettingsError as error:
                raise SettingsError(f"{x_name}={x_value}, {y_name}={y_value}: {error}") from None
        rows.append(row)
    return rows


class SweepStore(OutputStore):
    """Persisted outputs shared by all cells; no transcripts, which nobody reads after a sweep and
    which would cost a file per summary per cell."""

    def save_transcript(self, messages, label: str = "transcript"):
        return None


def _replay_key(settings: Settings, read: frozenset[str] | None) -> tuple:
    """What decides a replay, CONTEXT_LIMIT aside (see _reusable)."""
    values = settings.as_dict()
    return tuple(value for name, value in values.items() if name != "context_limit"
                 and (read is None or name in read or name == "reactive_keep_last"))


def _reusable(candidates: list[ReplayResult], settings: Settings) -> ReplayResult | None:
    """A finished replay identical to one with these settings (`candidates` share the settings the
    strategy reads, CONTEXT_LIMIT aside): same limit, or its history never went over its own limit
    nor over this one, or the strategy never compared with it."""
    limit = settings.context_limit
    for candidate in candidates:
        checked = candidate.max_checked_size
        if checked is None or candidate.settings.context_limit == limit \
                or (checked <= candidate.settings.context_limit and checked <= limit):
            return candidate
    return None


def sweep(conversation, x: tuple[str, Sequence[int]], y: tuple[str, Sequence[int]],
          base_settings: Settings | None = None, measure: str = "peak_tokens",
          progress: Callable[[int, int], None] | None = None, strategy: "str | StepFunction" = "pipeline",
          model_window_tokens: int = MODEL_WINDOW_TOKENS, summarizer: Summarizer | None = None,
          store: OutputStore | None = None, prices: Prices = DEFAULT_PRICES, executor=None,
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
    result = SweepResult(x_name, x_values, y_name, y_values, check_measure(measure), name, base)
    prepared = prepare(conversation)
    store = store or SweepStore(tempfile.mkdtemp(prefix="compaction-sweep-"))
    # a named or built strategy says which settings it reads; a caller's own function may read any
    known = isinstance(strategy, str | Built)
    read = (SETTINGS_READ.get(name) if isinstance(strategy, str) else strategy.settings_read) if known else None
    spread = executor is not None and executor.workers > 1 and known and summarizer is None \
        and max(len(x_values), len(y_values)) > 1  # _check_axis refused empty axes
    if spread:
        from compaction.replay.spread import sweep_spread

        result.cells, result.replays = sweep_spread(prepared, (x_name, x_values), (y_name, y_values), base,
                                                    measure, strategy, model_window_tokens, prices, executor, progress, cancelled)
        return result
    summarizer = summarizer or OfflineSummarizer()
    cells: dict[tuple[int, int], dict[str, Any]] = {}
    done: dict[tuple, list[ReplayResult]] = {}
    # largest limits first: a replay whose history never went over its own limit also answers the
    # smaller limits down to the largest size it compared (see _reusable)
    order = sorted(((r, c) for r in range(len(y_values)) for c in range(len(x_values))),
                   key=lambda rc: -grid[rc[0]][rc[1]].context_limit)
    for count, (row, column) in enumerate(order, 1):
        settings = grid[row][column]
        candidates = done.setdefault(_replay_key(settings, read), [])
        # a step function of the caller's may read CONTEXT_LIMIT without saying so: replay every cell
        replayed = _reusable(candidates, settings) if known else None
        if replayed is None:
            replayed = replay(prepared, settings, store, summarizer, model_window_tokens, step,
                              keep_histories=False, prices=prices)
            result.replays += 1
            candidates.append(replayed)
        cells[row, column] = cell_measures(replayed)
        if progress is not None:
            progress(count, len(order))
    result.cells = [[cells[r, c] for c in range(len(x_values))] for r in range(len(y_values))]
    return result
