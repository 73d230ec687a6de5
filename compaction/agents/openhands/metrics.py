"""What an OpenHands run says of its model calls beside its events: each response's usage, its model,
and the run's totals.

- An action's `tool_call_metadata.model_response` is the whole LLM response: its `usage` (as LiteLLM
  reports it: `prompt_tokens` is the whole context, cached tokens included) and its `model`.
- An evaluation output's line (one run) adds `metadata.llm_config.model`, the model the run was
  configured with, and `metrics` (openhands/llm/metrics.py): `token_usages`, one entry per model call
  ({model, prompt_tokens, completion_tokens, cache_read_tokens, cache_write_tokens, response_id}),
  `accumulated_token_usage` (the same summed) and `accumulated_cost` (US$, as LiteLLM priced the calls;
  0 when its price list lacks the model).

A response's usage is its `token_usages` entry when one names its id, else its model response's.
"""

from dataclasses import dataclass, field
from typing import Any

from compaction.importers.fields import list_at, object_at, text_at
from compaction.importers.totals import run_totals
from compaction.importers.usage import count

SOURCE = "metrics.accumulated_cost"


@dataclass(frozen=True)
class RunMetrics:
    model: str | None = None  # metadata.llm_config.model
    by_response: dict[str, dict] = field(default_factory=dict)  # response id -> its token_usages entry
    totals: dict | None = None  # importers/totals.py

    def usage(self, metadata: dict) -> dict[str, Any] | None:
        """The usage of the response an action's `tool_call_metadata` belongs to, with its model."""
        response = object_at(metadata, "model_response")
        entry = self.by_response.get(text_at(response, "id")) if text_at(response, "id") else None
        if entry is not None:
            found = _counts(entry.get("prompt_tokens"), entry.get("cache_read_tokens"),
                            entry.get("cache_write_tokens"), entry.get("completion_tokens"))
            return _with_model(found, entry.get("model"), self.model)
        usage = response.get("usage")
        if not isinstance(usage, dict) or not isinstance(usage.get("prompt_tokens"), int):
            return None
        details = object_at(usage, "prompt_tokens_details")
        found = _counts(usage["prompt_tokens"], usage.get("cache_read_input_tokens") or details.get("cached_tokens"),
                        usage.get("cache_creation_input_tokens"), usage.get("completion_tokens"))
        return _with_model(found, response.get("model"), self.model)


def run_metrics(value: Any) -> RunMetrics:
    """The metrics of a run's line (or of a saved trajectory object carrying them); empty ones for a
    bare event list."""
    if not isinstance(value, dict):
        return RunMetrics()
    config = object_at(object_at(value, "metadata"), "llm_config")
    model = text_at(config, "model").strip() or None
    metrics = object_at(value, "metrics")
    entries = list_at(metrics, "token_usages")
    by_response = {entry["response_id"]: entry for entry in entries
                   if isinstance(entry, dict) and isinstance(entry.get("response_id"), str) and entry["response_id"]}
    summed = object_at(metrics, "accumulated_token_usage")
    counts = _counts(summed.get("prompt_tokens"), summed.get("cache_read_tokens"), summed.get("cache_write_tokens"),
                     summed.get("completion_tokens"))
    totals = run_totals(SOURCE, counts, model, metrics.get("accumulated_cost"), len(entries))
    return RunMetrics(model, by_response, totals)


def _counts(prompt: Any, read: Any, written: Any, output: Any) -> dict[str, Any]:
    """LiteLLM's counts (the prompt includes what was read from and written to the cache) as the four."""
    prompt, read, written = count(prompt), count(read), count(written)
    return {"input_tokens": max(prompt - read - written, 0), "cache_creation_input_tokens": written,
            "cache_read_input_tokens": read, "output_tokens": count(output)}


def _with_model(counts: dict[str, Any], model: Any, run_model: str | None) -> dict[str, Any]:
    name = model if isinstance(model, str) and model.strip() else run_model
    return {**counts, "model": name.strip()} if name else counts
