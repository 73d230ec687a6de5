"""One session replayed call by call under one setting: the loop (loop.py, which runs the reference loop,
reference.py, or its incremental form, incremental.py; one call protocol for both: protocol.py), what rides
along (options.py, context.py), the records (records.py), the regime the log shows (regime.py) and how
faithful a replay is to the log (fidelity.py). Sweeps of many settings sit above it (compaction/sweep).

Its modules are internal to the engine: the dashboard and other packages use the names below.
"""

from compaction.replay.fidelity import Fidelity
from compaction.replay.fidelity import fidelity as log_fidelity  # the module keeps its name: no clash
from compaction.replay.lookups import call_number
from compaction.replay.loop import MODEL_WINDOW_TOKENS, replay
from compaction.replay.options import ReplayOptions
from compaction.replay.records import CallRecord, ReplayResult
from compaction.replay.regime import regime_boundary, regime_context_limit, regime_point
from compaction.replay.uncompacted import uncompacted_tokens

__all__ = ["MODEL_WINDOW_TOKENS", "CallRecord", "Fidelity", "ReplayOptions", "ReplayResult", "call_number", "log_fidelity",
           "regime_boundary", "regime_context_limit", "regime_point", "replay", "uncompacted_tokens"]
