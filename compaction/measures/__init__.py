"""What a model call costs and what the model loses, each a pure function of the histories sent: prices
by model (prices.py, billing.py), the cache (cache.py), the per-call meter (meter.py), loss (loss.py,
terms.py, probes.py), the registry of measures (registry.py), the model window by model
(windows.py).

- `token_model`: characters -> tokens (characters / 4 by default; calibrated on a log's recorded usage).
- `history_composition(history)`, `compositions_along(replay)`: what fills a call's context, by kind, in tokens
  (composition.py: the characters of each kind; composition_tokens.py: those as the call's tokens).

Its modules are internal to the engine: the dashboard and other packages use the names below.
"""

from compaction.measures.billing import NO_CACHE
from compaction.measures.branches_paid import PaidAndFinal, paid_and_final
from compaction.measures.composition import KIND_TITLES, KINDS, NOT_IN_LOG, TOOL_RESULTS
from compaction.measures.composition_tokens import (
    OTHER_TOOLS,
    Composition,
    call_composition,
    compositions_along,
    history_composition,
    sent_composition,
    uncompacted_along,
    uncompacted_call_composition,
    uncompacted_composition,
)
from compaction.measures.cost import DEFAULT_PRICES, Prices
from compaction.measures.pipeline_loss import PipelineLoss, pipeline_loss_of
from compaction.measures.prices import bills_cache_writes
from compaction.measures.probes import KIND_MEANING, MAX_SCORE, ProbeError, Prober, probe_score
from compaction.measures.registry import MEASURES
from compaction.measures.tradeoff import pareto_front
from compaction.measures.windows import LogWindow, log_window
from compaction.model.tokens import DEFAULT_TOKEN_MODEL, TokenModel

__all__ = ["DEFAULT_PRICES", "DEFAULT_TOKEN_MODEL", "KINDS", "KIND_MEANING", "KIND_TITLES", "MAX_SCORE", "MEASURES",
           "NOT_IN_LOG", "NO_CACHE", "OTHER_TOOLS", "TOOL_RESULTS", "Composition", "LogWindow", "PaidAndFinal",
           "PipelineLoss",
           "Prices", "ProbeError", "Prober", "TokenModel", "bills_cache_writes", "call_composition",
           "compositions_along", "history_composition", "log_window", "paid_and_final", "pareto_front",
           "pipeline_loss_of", "probe_score", "sent_composition", "uncompacted_along", "uncompacted_call_composition",
           "uncompacted_composition"]
