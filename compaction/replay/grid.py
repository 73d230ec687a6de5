"""The cells of a sweep computed in one process: every cell's settings, and the replays behind them,
shared where they are exactly the same. Both the sweep here (sweep.py) and each worker of a spread sweep
(spread.py) call `local_cells`.

What is shared between cells: the prepared conversation (sizes and caches), one output store (an
output persisted by one cell is not written again by the next) and whole replays: cells that differ
only in settings the strategy does not read share one replay, and a replay in which the history never
went over CONTEXT_LIMIT is the same for every limit above its largest size.
"""

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from compaction.errors import SettingsError
from compaction.measures.registry import MEASURES
from compaction.model.history import History
from compaction.model.settings import LIMITS, Settings
from compaction.replay.branches import BranchCounts, branch_replays
from compaction.replay.context import ReplayContext
from compaction.replay.loop import ReplayResult, incremental_form, replay
from compaction.replay.options import ReplayOptions
from compaction.storage.outputs import OutputStore
from compaction.strategies import StepFunction


def cell_measures(result: ReplayResult) -> dict[str, Any]:
    totals = result.totals
    return {name: totals[name] for name in MEASURES}


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


def local_cells(prepared: History, grid: list[list[Settings]], step: StepFunction, read: frozenset[str] | None,
                reuse: bool, options: ReplayOptions,
                progress: Callable[[int, int], None] | None = None) -> tuple[list[list[dict]], int]:
    """(cells[row][column], replays made) of `grid`. `read`: the settings the strategy reads (None: any);
    `reuse` False replays every cell (a caller's own step function may read CONTEXT_LIMIT unannounced);
    `options` gives the store and summariser the cells share."""
    counts = BranchCounts()
    cells: dict[tuple[int, int], dict[str, Any]] = {}
    total = len(grid) * len(grid[0])
    for row, column, cell in iter_local_cells(prepared, grid, step, read, reuse, options, counts):
        cells[row, column] = cell
        if progress is not None:
            progress(len(cells), total)
    return [[cells[r, c] for c in range(len(grid[0]))] for r in range(len(grid))], counts.replays


def iter_local_cells(prepared: History, grid: list[list[Settings]], step: StepFunction, read: frozenset[str] | None,
                     reuse: bool, options: ReplayOptions,
                     counts: BranchCounts) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """(row, column, cell) of each cell of `grid` as it is done. A strategy with an incremental form runs
    its cells as branches that split where they first differ (branches.py); the others replay each cell,
    reusing a finished replay where it is the same (see _reusable)."""
    keeps = any(settings.keeps for row in grid for settings in row)  # only the plain layers keep verbatim
    form = incremental_form(step) if reuse and not keeps else None
    options = options.given(keep_histories=False)
    if form is not None:
        context = ReplayContext.start(prepared, getattr(step, "__name__", "custom"), options)
        cells = [((r, c), grid[r][c]) for r in range(len(grid)) for c in range(len(grid[0]))]
        for (row, column), branch in branch_replays(context, form, cells, counts):
            yield row, column, cell_measures(branch)
        return
    done: dict[tuple, list[ReplayResult]] = {}
    # largest limits first: a replay whose history never went over its own limit also answers the
    # smaller limits down to the largest size it compared (see _reusable)
    order = sorted(((r, c) for r in range(len(grid)) for c in range(len(grid[0]))),
                   key=lambda rc: -grid[rc[0]][rc[1]].context_limit)
    for row, column in order:
        settings = grid[row][column]
        candidates = done.setdefault(_replay_key(settings, read), [])
        replayed = _reusable(candidates, settings) if reuse else None
        if replayed is None:
            replayed = replay(prepared, settings, strategy=step, options=options)
            counts.replays += 1
            counts.calls += len(replayed.calls)
            candidates.append(replayed)
        yield row, column, cell_measures(replayed)
