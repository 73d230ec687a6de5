"""A sweep spread over the workers of an executor (local processes, or a Dask cluster): one task per
row of the grid (per column when the rows are CONTEXT_LIMIT, whose replays a sweep shares along its
axis; per cell for a sweep of one axis), each a sweep of its own on a worker. The cells are those of
the sweep in one process.

What travels to a worker is the prepared conversation's messages and what was measured beside them
(system prompt and tools, the token model, the log's recorded usage), and the strategy by name, so
every task pickles; each worker measures the messages again, once per sweep: it keeps the last
conversation it prepared (its sizes, term index and caches) for the sweep's other lines. The messages
are pickled once per sweep and travel as bytes, which a worker reads only for its first line. Forked
workers (the command line's) skip even that: this process prepares the conversation before the first
task, and they start with it in memory.

The first task of each worker is one cell, not a line, so that the first cells come after one replay
rather than a line of them (a page draws the grid as it fills); the rest of those lines follow as tasks
of their own. That costs at most one replay per worker more than whole lines would.
"""

import dataclasses
import pickle
import tempfile
import uuid
from collections.abc import Callable, Iterator
from typing import Any

from compaction.errors import CompactionError
from compaction.measures.meter import term_index
from compaction.model.history import History, remeasured
from compaction.model.prepared import Prepared
from compaction.model.settings import Settings
from compaction.model.tool_index import ResultBlocks, ToolNames
from compaction.replay import lookups
from compaction.replay.options import ReplayOptions
from compaction.strategies import SETTINGS_READ, Built, build, resolve
from compaction.summarizers import OfflineSummarizer
from compaction.sweep.grid import SweepStore, local_cells, sweep_grid
from compaction.sweep.parallel import stream

# On a worker: the conversation of the sweep it last served, prepared once for all that sweep's lines
_PREPARED: dict[str, History] = {}


@dataclasses.dataclass(frozen=True)
class _Conversation:
    messages: bytes  # pickled (see messages_payload)
    overhead: int
    token_model: Any
    calibration: Any
    recorded: Any
    key: str = ""  # names one sweep's conversation; empty: prepared afresh

    def history(self) -> History:
        found = _PREPARED.get(self.key) if self.key else None
        if found is None:
            like = Prepared([], [], ToolNames([]), ResultBlocks([]), self.overhead, self.token_model, self.calibration,
                            self.recorded)  # only its measured facts are read: remeasured indexes the messages
            found = remeasured(pickle.loads(self.messages), like)
            if self.key:
                _PREPARED.clear()  # one conversation at a time: a worker serves one sweep after another
                _PREPARED[self.key] = found
        return found


def warmed(prepared: History) -> History:
    """`prepared` with the indexes every replay of it builds (terms, tool output, compact turns) built."""
    term_index(prepared)
    lookups.output_chars_before(prepared)
    lookups.compact_turns(prepared)
    return prepared


def messages_payload(messages: list) -> bytes:
    return pickle.dumps(messages, pickle.HIGHEST_PROTOCOL)


def _strategy(strategy: "str | Built") -> "str | tuple[str, dict]":
    return strategy if isinstance(strategy, str) else (strategy.spec.name, strategy.params)


def sweep_line(value: Any, conversation: _Conversation, across: tuple[str, list[Any]] | None, along: str,
               base: Settings, strategy: "str | tuple[str, dict]", options: ReplayOptions) -> tuple[list[dict], int]:
    """On a worker: the cells of one line of the grid (`along` = `value`, every value `across`; the one
    cell at `value` when `across` is None), and how many replays they took. `options`: what the sweep's
    options give a worker (ReplayOptions.for_workers)."""
    if isinstance(strategy, str):
        name, step = resolve(strategy)
        read = SETTINGS_READ.get(name)
    else:
        built = build(*strategy)
        name, step, read = built.__name__, built, built.settings_read
    line = (along, [value])
    *_, grid = sweep_grid(base, across or line, line if across else None, step)
    with tempfile.TemporaryDirectory(prefix="compaction-sweep-") as folder:
        here = options.given(store=SweepStore(folder), summarizer=OfflineSummarizer())
        cells, replays = local_cells(conversation.history(), grid, step, read, True, here)
    return cells[0], replays


def spread_lines(prepared: History, x: tuple[str, list[Any]], y: tuple[str, list[Any]] | None, base: Settings,
                 strategy: "str | Built", options: ReplayOptions,
                 cancelled: Callable[[], bool] | None = None) -> Iterator[tuple[int, list, int]]:
    """(cells done so far, [(row, column, cell)] of one line, its replays) as each task finishes, on the
    workers of `options.executor`. `y` None: a line of cells along `x`, one task per cell."""
    executor = options.executor
    by_columns = y is not None and y[0] == "context_limit"  # keep CONTEXT_LIMIT inside each task: shared replays
    across: tuple[str, list[Any]] | None
    if y is None:
        across, (along, values) = None, x
    else:
        across, (along, values) = (y, x) if by_columns else (x, y)
    conversation = _Conversation(messages_payload(prepared.originals), prepared.overhead, prepared.token_model,
                                 prepared.calibration, prepared.recorded, uuid.uuid4().hex)
    if getattr(executor, "shares_memory", False):
        # forked workers start from this process's memory: prepared (and indexed) once, here, for all
        _PREPARED.clear()
        _PREPARED[conversation.key] = warmed(conversation.history())
    tasks = line_parts(len(values), len(across[1]) if across else 1, executor.workers)
    done = 0
    for task, outcome in stream(_sweep_part, tasks, (values, conversation, across, along, base,
                                                      _strategy(strategy), options.for_workers()),
                                executor, lambda part, error: error, None, cancelled):
        position, first, _ = tasks[task]
        if isinstance(outcome, BaseException):
            raise CompactionError(f"the sweep failed on a worker ({along} {values[position]:,}): {outcome}")
        line, line_replays = outcome
        done += len(line)
        yield done, [(0, position, cell) if across is None else (first + k, position, cell) if by_columns
                     else (position, first + k, cell) for k, cell in enumerate(line)], line_replays


def line_parts(lines: int, length: int, workers: int) -> list[tuple[int, int, int]]:
    """The tasks of a grid of `lines` lines of `length` cells, as (line, first cell, end): whole lines, but
    for the first cell of each of the first `workers` lines, which comes first as a task of its own."""
    opening = min(workers, lines) if length > 1 else 0
    return ([(line, 0, 1) for line in range(opening)] + [(line, 1, length) for line in range(opening)]
            + [(line, 0, length) for line in range(opening, lines)])


def _sweep_part(part: tuple[int, int, int], values: list[Any], conversation: _Conversation,
                across: tuple[str, list[Any]] | None, along: str, *rest) -> tuple[list[dict], int]:
    """On a worker: the cells `first` to `end` of one line (line_parts), and how many replays they took."""
    line, first, end = part
    return sweep_line(values[line], conversation, (across[0], across[1][first:end]) if across else None, along,
                      *rest)
