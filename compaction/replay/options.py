"""What rides along with a replay or a sweep of one session whatever its settings: the output store, the
summariser, the model window, the prices, where tokens come from, whether histories are kept, where the
work runs. One frozen object, passed by keyword (`options=`), so the loops, sweeps and workers hand it on
whole instead of a handful of positional arguments."""

from dataclasses import dataclass, fields, replace
from typing import Any

from compaction.errors import SettingsError
from compaction.measures.cost import Prices
from compaction.storage.outputs import OutputStore
from compaction.summarizers import Summarizer


@dataclass(frozen=True)
class ReplayOptions:
    store: OutputStore | None = None  # where persisted outputs go (None: a new temporary folder)
    summarizer: Summarizer | None = None  # who writes the summaries (None: the offline summariser)
    # a context over it is compacted reactively; None: the log's own window (its model's, measures/windows.py)
    model_window_tokens: int | None = None
    prices: Prices | None = None  # None: each call priced as the log says
    from_log: bool = True  # the tokens the log recorded are used where they are known
    keep_histories: bool = True  # each call's history is kept in the result (sweeps drop them)
    plain: bool = False  # the reference loop whatever the strategy (the same records, more slowly)
    executor: Any = None  # a sweep's worker processes or Dask cluster (sweep/parallel.py); None: here

    def given(self, **changes: Any) -> "ReplayOptions":
        """These options with `changes` (the names of the fields), refused by name when one is unknown."""
        known = {field.name for field in fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise SettingsError(f"unknown replay option {', '.join(unknown)}; the options are {', '.join(sorted(known))}")
        return replace(self, **changes) if changes else self

    def for_workers(self) -> "ReplayOptions":
        """What a worker process receives: the window, prices and flags (it makes its own store and
        summariser, and runs no executor of its own)."""
        return replace(self, store=None, summarizer=None, executor=None, keep_histories=False)


DEFAULT_OPTIONS = ReplayOptions()


def options_from(options: ReplayOptions | None, changes: dict[str, Any]) -> ReplayOptions:
    """`options` (or the defaults) with the keyword arguments a caller gave one by one."""
    return (options or DEFAULT_OPTIONS).given(**changes)
