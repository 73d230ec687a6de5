"""Replaying a session call by call: the loop (loop.py over plain.py and incremental.py, one call protocol:
protocol.py), what rides along (options.py), the records (records.py), sweeps of two settings
(sweep.py, grid.py, branches.py, spread.py) and where the work runs (parallel.py).

Its modules are internal to the engine: the dashboard and other packages use the names below.
"""

from compaction.replay.loop import MODEL_WINDOW_TOKENS, replay
from compaction.replay.options import ReplayOptions
from compaction.replay.parallel import ProcessPool, open_executor
from compaction.replay.records import CallRecord, ReplayResult
from compaction.replay.regime import regime_context_limit
from compaction.replay.sweep import SweepResult, SweepStore, sweep_stream

SWEEP_WORKER_MODULE = "compaction.replay.spread"  # what a sweep's worker process runs (to import it as it starts)

__all__ = ["MODEL_WINDOW_TOKENS", "SWEEP_WORKER_MODULE", "CallRecord", "ProcessPool", "ReplayOptions", "ReplayResult",
           "SweepResult", "SweepStore", "open_executor", "regime_context_limit", "replay", "sweep_stream"]
