"""What a log says of a whole run, beside or instead of each call's usage: its tokens, its model, its
own cost, how many calls it made. Some agents write only these (each agent's reader says where: its
package under compaction/agents/); the lab then shows them as the recorded side and estimates every
per-call figure.

One dict under `Conversation.metadata[RECORDED_TOTALS]`, its counts in usage.py's four keys so that
the run is priced as one call would be (measures/prices.py: totals_cost):
- `source`: where the log writes them, in its own words ("result.stats");
- `input_tokens`, `cache_creation_input_tokens`, `cache_read_input_tokens`, `output_tokens`: present
  only when the log gives its tokens;
- `model`: the model that did most of the work, when the log names one; `by_model`: the four counts
  per model, when the log splits them;
- `cost_usd`: the log's own figure of what the run cost, when it gives one (a cost of 0 is not one: an
  agent writes it when it made no call, or when its price list lacked the model);
- `calls`: how many model calls the log says the run made, when it says.
"""

from typing import Any, TypeGuard

from compaction.importers.usage import USAGE_KEYS, count, from_cached_input
from compaction.model.conversation import RECORDED_TOTALS

__all__ = ["RECORDED_TOTALS", "cached_input_counts", "has_tokens", "input_of", "run_totals", "usd"]


def usd(value: Any) -> float | None:
    """A dollar figure as written, or None for anything that is not a non-negative number."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value or value < 0:
        return None
    return float(value)


def run_totals(source: str, counts: dict[str, Any] | None = None, model: Any = None, cost_usd: Any = None,
               calls: Any = None, by_model: dict[str, dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """The totals of a run (see the module docstring); None when the log gives neither tokens nor a cost.
    `counts` are usage.py's four keys (from_cached_input gives them from one input count and its cached
    share); `by_model` the same per model, whose largest input names the run's model when `model` is None."""
    totals: dict[str, Any] = {"source": source}
    if counts:
        totals.update({key: count(counts.get(key)) for key in USAGE_KEYS})
    if by_model:
        totals["by_model"] = {name: {key: count(split.get(key)) for key in USAGE_KEYS}
                              for name, split in by_model.items()}
        if model is None:
            model = max(by_model, key=lambda name: input_of(by_model[name]))
    if isinstance(model, str) and model.strip():
        totals["model"] = model.strip()
    cost = usd(cost_usd)
    if cost:  # 0 is what an agent writes when it made no call, or could not price its calls
        totals["cost_usd"] = cost
    if count(calls):
        totals["calls"] = count(calls)
    return totals if "cost_usd" in totals or any(count(totals.get(key)) for key in USAGE_KEYS) else None


def cached_input_counts(input_tokens: Any, cached: Any, output_tokens: Any) -> dict[str, Any]:
    """The four counts from an input that includes its cached share (OpenAI's and Google's way); all zero
    when the log gives none."""
    return from_cached_input(input_tokens, cached, output_tokens) or dict.fromkeys(USAGE_KEYS, 0)


def input_of(counts: dict[str, Any]) -> int:
    """Every input token of the counts: uncached, written to the cache and read from it."""
    return sum(count(counts.get(key)) for key in USAGE_KEYS if key != "output_tokens")


def has_tokens(totals: Any) -> TypeGuard[dict[str, Any]]:
    return isinstance(totals, dict) and any(count(totals.get(key)) for key in USAGE_KEYS)
