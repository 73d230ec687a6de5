"""What one model call recorded, in the one dict every importer gives (Conversation.usage).

The four counts of the Messages API, always present: `input_tokens` (not read from a cache),
`cache_creation_input_tokens`, `cache_read_input_tokens`, `output_tokens`; their sum over the input
side is the context the call carried. Beside them, when the log says so: `model`, and the cache writes
split by lifetime (`cache_write_5m_tokens`, `cache_write_1h_tokens`), which are priced apart (1.25x and
2x the input price).

Two ways logs write usage:
- Anthropic's: the input is already split into plain, written and read;
- OpenAI's and Google's: one input count that includes the cached tokens, and the cached share beside it. Neither writes a cache: a prefix is cached by the provider without a charge
  for writing it, so the writes are 0.
"""

from typing import Any

USAGE_KEYS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens")
CACHE_WRITE_KEYS = (("ephemeral_5m_input_tokens", "cache_write_5m_tokens"),
                    ("ephemeral_1h_input_tokens", "cache_write_1h_tokens"))
# The model names agents give the responses they write themselves (no model call, no cost): each agent
# registers its own (compaction/agents/)
_NO_CALL_MODELS: set[str] = set()


def register_no_call_model(name: str) -> str:
    _NO_CALL_MODELS.add(name)
    return name


def made_no_call(model: Any) -> bool:
    """Whether a response of `model` was written by the agent itself, without calling a model."""
    return isinstance(model, str) and model.strip() in _NO_CALL_MODELS


def count(value: Any) -> int:
    """A token count as written, or 0 for anything that is not a non-negative whole number."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def from_anthropic(usage: Any, model: Any = None) -> dict[str, Any] | None:
    """A Messages API `usage` object; None when there is none, it is all zero, or the response was written
    by the agent itself (made_no_call: no model call, no cost)."""
    if not isinstance(usage, dict) or made_no_call(model):
        return None
    counts: dict[str, Any] = {key: count(usage.get(key)) for key in USAGE_KEYS}
    if not any(counts.values()):
        return None
    split = usage.get("cache_creation")
    if isinstance(split, dict):
        for source, key in CACHE_WRITE_KEYS:
            if source in split:
                counts[key] = count(split[source])
    return _with_model(counts, model)


def from_cached_input(input_tokens: Any, cached: Any, output_tokens: Any, model: Any = None) -> dict[str, Any] | None:
    """Counts whose input includes the cached tokens; None when they are all zero."""
    total, read, output = count(input_tokens), count(cached), count(output_tokens)
    if not (total or read or output):
        return None
    read = min(read, total) if total else read  # a cached share larger than the input: the input is the whole
    counts: dict[str, Any] = {"input_tokens": total - read if total else 0, "cache_creation_input_tokens": 0,
                              "cache_read_input_tokens": read, "output_tokens": output}
    return _with_model(counts, model)


def _with_model(counts: dict[str, Any], model: Any) -> dict[str, Any]:
    if isinstance(model, str) and model:
        counts["model"] = model
    return counts
