"""What a model call costs and what the model loses, each a pure function of the histories sent: prices
by model (prices.py, billing.py), the cache (cache.py), the per-call meter (meter.py), loss (loss.py,
terms.py, probes.py), fidelity to the log (fidelity.py), the registry of measures (registry.py).

Its modules are internal to the engine: the dashboard and other packages use the names below.
"""

from compaction.measures.cost import DEFAULT_PRICES, Prices
from compaction.measures.fidelity import Fidelity
from compaction.measures.fidelity import fidelity as log_fidelity  # the module keeps its name: no clash
from compaction.measures.pipeline_loss import PipelineLoss, pipeline_loss_of
from compaction.measures.prices import bills_cache_writes
from compaction.measures.probes import KIND_MEANING, MAX_SCORE, ProbeError, Prober, probe_score
from compaction.measures.registry import MEASURES
from compaction.measures.tradeoff import pareto_front

__all__ = ["DEFAULT_PRICES", "KIND_MEANING", "MAX_SCORE", "MEASURES", "Fidelity", "PipelineLoss", "Prices", "ProbeError",
           "Prober", "bills_cache_writes", "log_fidelity", "pareto_front", "pipeline_loss_of", "probe_score"]
