"""A sweep: one session replayed over a grid of two settings (or a line of one), every cell measured.
It sits above compaction/replay, which replays one session under one setting.

- sweeps.py: `sweep` and `sweep_stream` (cells as they are done), `SweepResult`;
- grid.py: the grid's cells, here or by the kernel; branches.py: cells that share the calls before they differ;
- thresholds.py: the cells of an agent's preset that differ only in its threshold on tokens, made by the
  reference loop together while their decisions agree;
- spread.py and parallel.py: a grid spread over worker processes or a Dask cluster, one line per task;
- kernel/: the private fast path, a grid's cells of the tutorial's pipeline as columns (the loop stays the
  reference: the kernel gives exactly its figures).

Its modules are internal to the engine: the dashboard and other packages use the names below.
"""

from compaction.sweep.grid import SweepStore
from compaction.sweep.parallel import ProcessPool, open_executor
from compaction.sweep.sweeps import SweepResult, sweep, sweep_stream

SWEEP_WORKER_MODULE = "compaction.sweep.spread"  # what a sweep's worker process runs (to import it as it starts)

__all__ = ["SWEEP_WORKER_MODULE", "ProcessPool", "SweepResult", "SweepStore", "open_executor", "sweep",
           "sweep_stream"]
