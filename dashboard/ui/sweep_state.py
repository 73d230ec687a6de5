"""Tune's sweep for the session: the grid of two settings around the sidebar's (or of the agent's own
preset's parameters, a line for one), streamed as it fills and kept per session once whole; one pool of
worker processes shared by every session's sweeps. Every sweep goes through the engine's public
sweep_stream, whatever computes its cells."""

import os
import time
from collections import OrderedDict
from collections.abc import Iterator

import streamlit as st

from compaction.strategies import Built
from compaction.sweep import SWEEP_WORKER_MODULE, ProcessPool, SweepResult, SweepStore
from compaction.sweep import sweep_stream as sweep_stream_of
from dashboard.ui import state

_SWEEPS = "_sweeps"
SWEEP_MODULE = SWEEP_WORKER_MODULE  # what a sweep's worker runs, imported as it starts
SWEEP_REDRAW_S = 0.15  # Tune redraws its heatmap at most this often while the sweep fills it


def sweep_stream(x: tuple[str, tuple], y: tuple[str, tuple] | None,
                 strategy: "str | Built" = "pipeline") -> Iterator[SweepResult]:
    """The sweep of `x` and `y` (settings, or parameters of `strategy`; `y` None: a line) around the
    current settings as it fills (compaction's sweep_stream): the same result again every SWEEP_REDRAW_S
    at most while cells are done, then whole, which is kept; a grid already swept comes whole at once."""
    base, window, current_prices = state.settings(), state.model_window(), state.prices()
    axes = (x[0], y[0] if y is not None else None)
    others = tuple((name, value) for name, value in base.as_dict().items() if name not in axes)
    chosen = strategy if isinstance(strategy, str) else (strategy.spec.name, tuple(sorted(strategy.params.items())))
    key = (state.loaded().key, others, x, y, window, current_prices, chosen)
    cache = st.session_state.setdefault(_SWEEPS, OrderedDict())
    if key not in cache:
        shown = 0.0
        for result in sweep_stream_of(state.history(), x, y, base, strategy=strategy, model_window_tokens=window,
                                      prices=current_prices, store=SweepStore(state.store().root / "sweeps"),
                                      executor=_sweep_workers()):
            if result.cells_done < result.cell_count and time.monotonic() - shown >= SWEEP_REDRAW_S:
                shown = time.monotonic()
                yield result
        state.remember(_SWEEPS, key, result, size=4)
    cache.move_to_end(key)
    yield cache[key]


def start_workers() -> None:
    """Start the sweeps' pool, if it is not running yet (after a page is drawn, so that it slows no page):
    Tune's first cells then wait for no worker to start and import the engine."""
    _sweep_workers()


@st.cache_resource(show_spinner=False)
def _sweep_workers():
    """One pool of worker processes for the sweeps of every session (one per core, started once and
    fresh, not forked from the server's threads); None on a single core."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if cores < 2:
        return None
    pool = ProcessPool(cores, preload=SWEEP_MODULE)
    pool.start()
    return pool
