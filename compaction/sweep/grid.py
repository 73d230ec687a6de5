"""The cells of a sweep computed in one process: every cell's settings and strategy, and the replays
behind them, shared where they are exactly the same. Both the sweep here (sweeps.py) and each worker of a
spread sweep (spread.py) call `local_cells`.

An axis names a field of Settings (the tutorial's knobs, which every strategy is called with) or a
parameter of the swept strategy (a preset's own knobs, such as an agent's auto-compact limit), checked by the
strategy's spec; a sweep has one axis (a line) or two (a grid).

What is shared between cells: the prepared conversation (sizes and caches), one output store (an
output persisted by one cell is not written again by the next) and whole replays: cells that differ
only in settings the strategy does not read share one replay, and a replay in which the history never
went over CONTEXT_LIMIT is the same for every limit above its largest size. Cells of different strategy
parameters share no replay.
"""

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from compaction.errors import SettingsError
from compaction.measures.registry import MEASURES
from compaction.model.history import History
from compaction.model.settings import LIMITS, Settings
from compaction.replay.context import ReplayContext
from compaction.replay.loop import ReplayResult, incremental_form, replay
from compaction.replay.options import ReplayOptions
from compaction.storage.outputs import OutputStore
from compaction.strategies import Built, StepFunction, StrategySpec, resolve
from compaction.strategies.person import PERSON_ACTIONS, has_person_actions
from compaction.sweep.branches import BranchCounts, branch_replays
from compaction.sweep.thresholds import shared_key, threshold_replays

SETTING, PARAMETER = "setting", "parameter"


@dataclass(frozen=True)
class SweepAxis:
    name: str
    values: list[Any]
    kind: str  # SETTING: a field of Settings; PARAMETER: a parameter of the swept strategy


@dataclass(frozen=True)
class GridCell:
    settings: Settings
    params: tuple[tuple[str, Any], ...] | None = None  # the strategy's checked parameters here; None: as given


def cell_measures(result: ReplayResult) -> dict[str, Any]:
    totals = result.totals
    return {name: totals[name] for name in MEASURES}


def strategy_spec(strategy: "str | StepFunction") -> tuple[StrategySpec | None, dict[str, Any]]:
    """The registry's spec of a strategy and the parameters it was given; (None, {}) for a caller's function."""
    _, step = resolve(strategy)
    return (step.spec, dict(step.params)) if isinstance(step, Built) else (None, {})


def axis_kind(name: str, spec: StrategySpec | None) -> str:
    """PARAMETER when `name` is a parameter of the strategy, SETTING for a field of Settings. A strategy
    that takes its parameters from the settings (the tutorial's) names them as the settings: there the
    name is the setting, as it always was (a parameter given to it overrides that setting's axis)."""
    own = set() if spec is None else {param.name for param in spec.params
                                      if not spec.from_settings or param.name not in LIMITS}
    if name in own:
        return PARAMETER
    if name in LIMITS:
        return SETTING
    if spec is None or not own:
        raise SettingsError(f"unknown setting {name!r}; choose one of {', '.join(LIMITS)}")
    raise SettingsError(f"{name!r} is neither a setting nor a parameter of {spec.name}; its parameters are "
                        f"{', '.join(sorted(own))}, the settings {', '.join(LIMITS)}")


def _check_axis(axis: tuple[str, Sequence[Any]], label: str, spec: StrategySpec | None) -> SweepAxis:
    try:
        name, values = axis
    except (TypeError, ValueError):
        raise SettingsError(f"{label} must be (setting or parameter name, values), got {axis!r}") from None
    try:
        kind = axis_kind(name, spec)
    except SettingsError as error:
        raise SettingsError(f"{label}: {error}") from None
    values = list(values)
    if not values:
        raise SettingsError(f"{label}: {name} needs at least one value")
    return SweepAxis(name, values, kind)


def sweep_grid(base: Settings, x: tuple[str, Sequence[Any]], y: tuple[str, Sequence[Any]] | None,
               strategy: "str | StepFunction" = "pipeline") -> tuple[SweepAxis, SweepAxis | None, list[list[GridCell]]]:
    """The checked axes (y None: a line) and every cell (rows: y values); a SettingsError naming the axis
    or the cell that cannot be, before any work. A parameter's values are checked by the strategy's spec."""
    spec, given = strategy_spec(strategy)
    x_axis = _check_axis(x, "x", spec)
    y_axis = None if y is None else _check_axis(y, "y", spec)
    if y_axis is not None and x_axis.name == y_axis.name:
        raise SettingsError(f"x and y must be two different settings, both are {x_axis.name}")
    return x_axis, y_axis, _grid_cells(base, spec, given, x_axis, y_axis)


def _grid_cells(base: Settings, spec: StrategySpec | None, given: dict[str, Any], x: SweepAxis,
                y: SweepAxis | None) -> list[list[GridCell]]:
    rows = []
    for y_value in (y.values if y is not None else [None]):
        row = []
        for x_value in x.values:
            pairs = [(x, x_value)] + ([(y, y_value)] if y is not None else [])
            settings = {axis.name: value for axis, value in pairs if axis.kind == SETTING}
            params = {axis.name: value for axis, value in pairs if axis.kind == PARAMETER}
            try:
                checked = spec.resolve({**given, **params}) if params and spec is not None else None
                row.append(GridCell(base.replace(**settings), None if checked is None else tuple(sorted(
                    checked.items()))))
            except SettingsError as error:
                where = ", ".join(f"{axis.name}={value}" for axis, value in pairs)
                raise SettingsError(f"{where}: {error}") from None
        rows.append(row)
    return rows


class SweepStore(OutputStore):
    """Persisted outputs shared by all cells; no transcripts, which nobody reads after a sweep and
    which would cost a file per summary per cell."""

    writes_transcripts = False

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


def local_cells(prepared: History, grid: list[list[GridCell]], step: StepFunction, read: frozenset[str] | None,
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


def iter_local_cells(prepared: History, grid: list[list[GridCell]], step: StepFunction, read: frozenset[str] | None,
                     reuse: bool, options: ReplayOptions,
                     counts: BranchCounts) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """(row, column, cell) of each cell of `grid` as it is done, the cells of one set of the strategy's
    parameters together (`step` as given where a cell names none), in the grid's order."""
    by_params: dict[tuple | None, list[tuple[tuple[int, int], Settings]]] = {}
    for row, line in enumerate(grid):
        for column, cell in enumerate(line):
            by_params.setdefault(cell.params, []).append(((row, column), cell.settings))
    options = options.given(keep_histories=False)
    together: dict[tuple, list[tuple[tuple[int, int], Settings, Built]]] = {}
    for params, cells in by_params.items():
        at, at_read = (step, read) if params is None else _built_at(step, params)
        if reuse and isinstance(at, Built) and at.spec.threshold is not None \
                and not any(settings.keeps for _, settings in cells):
            for key, settings in cells:  # run with the cells that differ from it only in the threshold
                together.setdefault((settings, shared_key(at)), []).append((key, settings, at))
            continue
        yield from _strategy_cells(prepared, cells, at, at_read, reuse, options, counts)
    for group in together.values():
        context = ReplayContext.start(prepared, group[0][2].__name__, options,
                                      follows_log=group[0][2].spec.follows_log)
        for (row, column), replayed in threshold_replays(context, group, counts):
            counts.by_threshold += 1
            counts.left_to_loop[row, column] = TOGETHER
            yield row, column, cell_measures(replayed)


def _built_at(step: StepFunction, params: tuple) -> tuple[Built, frozenset[str] | None]:
    """`step`, a strategy of the registry (sweep_grid checked it), at one cell's parameters."""
    if not isinstance(step, Built):
        raise SettingsError("a sweep over a strategy's parameter needs a strategy of the registry")
    built = step.spec.build(dict(params))
    return built, built.settings_read


TOGETHER = "the preset has no columnar form: the loop ran it with the cells of other thresholds until they parted"
KEEPS_VERBATIM = "the settings keep something verbatim, which only the plain layers do"


def _strategy_cells(prepared: History, cells: list[tuple[tuple[int, int], Settings]], step: StepFunction,
                    read: frozenset[str] | None, reuse: bool, options: ReplayOptions,
                    counts: BranchCounts) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """The cells of one strategy at one set of parameters. The tutorial's pipeline runs its cells through
    the columnar kernel (compaction/sweep/kernel); the cells it leaves, and the other strategies with an
    incremental form, run as branches that split where they first differ (branches.py); the others
    replay each cell, reusing a finished replay where it is the same (see _reusable). `counts` says why
    each cell the kernel did not compute ran the loop. Cells that keep something verbatim run the plain
    layers (only they keep verbatim)."""
    # imported here: numpy is loaded with the kernel, which only a sweep needs (not a replay's start)
    from compaction.sweep.kernel import NO_COLUMNAR_FORM, kernel_cells

    keeps = any(settings.keeps for _, settings in cells)
    form = incremental_form(step, prepared) if reuse and not keeps else None
    if form is None:
        why_loop = KEEPS_VERBATIM if keeps else PERSON_ACTIONS if has_person_actions(prepared) else NO_COLUMNAR_FORM
        counts.left_to_loop.update(dict.fromkeys((key for key, _ in cells), why_loop))
    else:
        context = ReplayContext.start(prepared, getattr(step, "__name__", "custom"), options)
        left = []
        for (row, column), settings, cell, reason in kernel_cells(context, form, cells):
            if cell is None:
                counts.left_to_loop[row, column] = reason
                left.append(((row, column), settings))
            else:
                counts.by_kernel += 1
                yield row, column, cell
        for (row, column), branch in branch_replays(context, form, left, counts):
            yield row, column, cell_measures(branch)
        return
    done: dict[tuple, list[ReplayResult]] = {}
    # largest limits first: a replay whose history never went over its own limit also answers the
    # smaller limits down to the largest size it compared (see _reusable)
    for (row, column), settings in sorted(cells, key=lambda cell: -cell[1].context_limit):
        candidates = done.setdefault(_replay_key(settings, read), [])
        replayed = _reusable(candidates, settings) if reuse else None
        if replayed is None:
            replayed = replay(prepared, settings, strategy=step, options=options)
            counts.replays += 1
            counts.calls += len(replayed.calls)
            candidates.append(replayed)
        yield row, column, cell_measures(replayed)
