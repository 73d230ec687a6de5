"""How many tokens each model accepts in one call, as the agents that run it use it: a window table by
model family beside the price table (prices.py), each row with its source, and the window of a loaded log.

The rows of the providers' own pages are entered here; an agent that runs a model at a window of its own
(its model metadata, its token limits) registers those rows from its package (compaction/agents/). The window
of a log: the figure the log itself names (its importer puts it in `metadata["model_window_tokens"]`, with its
source), else the row of its main model, else 200,000 (Claude's, the tutorial's). Over it the replay compacts
reactively and the agent without compaction stops. A model id ending in `[1m]` (a Claude model chosen with its
1M-token window) gets 1,000,000 whatever its family.

The main model is the one the log's own compactions were counted against (the call before each), else the
one most calls name. A log may name a window per model (`metadata["model_windows_tokens"]`, where its
agent reports one per turn); a call on another model than the main one (a one-off turn on a small model) is
replayed against its own model's window (call_windows), the session against the main model's.
"""

from collections import Counter
from dataclasses import dataclass

from compaction.measures.prices import READ_ON, family_row

FALLBACK_WINDOW = 200_000  # Claude's; the tutorial's model window
FALLBACK_SOURCE = "no model the window table knows: 200,000 tokens, Claude's"
ONE_MILLION = 1_000_000
ONE_MILLION_SUFFIX = "[1m]"
NAMED_KEY, NAMED_SOURCE_KEY = "model_window_tokens", "model_window_source"
PER_MODEL_KEY = "model_windows_tokens"  # {model: tokens}: the window the log names for each of its models

ANTHROPIC = ("https://platform.claude.com/docs/en/build-with-claude/context-windows (200k; 1M only where the "
             "model is run with its 1M window, named with a [1m] suffix)")
OPENAI_41 = "https://platform.openai.com/docs/models/gpt-4.1 (1,047,576 tokens)"


@dataclass(frozen=True)
class ModelWindow:
    family: str  # the model-id prefix this row covers, matched as the price table matches
    tokens: int
    source: str
    read_on: str = READ_ON


def rows(families: str, tokens: int, source: str) -> tuple[ModelWindow, ...]:
    """One row per family of the space-separated `families`, each at `tokens`, from `source`."""
    return tuple(ModelWindow(family, tokens, source) for family in families.split())


_TABLE: dict[str, ModelWindow] = {row.family: row for row in (
    *rows("claude-3-haiku claude-3-5-haiku claude-3-opus claude-3-5-sonnet claude-3-7-sonnet claude-opus-4 "
          "claude-opus-4-0 claude-opus-4-1 claude-opus-4-5 claude-opus-4-6 claude-opus-4-7 claude-opus-4-8 "
          "claude-opus-5 claude-opus-5-5 claude-sonnet-4 claude-sonnet-4-0 claude-sonnet-4-5 claude-sonnet-4-6 "
          "claude-sonnet-5 claude-sonnet-5-5 claude-haiku-4-5 claude-haiku-5-5 claude-fable-5 claude-fable-5-1 "
          "claude-mythos-5 claude-mythos-5-1", 200_000, ANTHROPIC),
    *rows("gpt-4.1 gpt-4.1-mini gpt-4.1-nano", 1_047_576, OPENAI_41),
    *rows("grok-code-fast-1", 256_000, "https://docs.x.ai/docs/models/grok-code-fast-1 (256,000 tokens)"),
)}


def register(row: ModelWindow) -> ModelWindow:
    """Enter an agent's row (its package's `windows`); it stands in for a provider's row of the same family."""
    _TABLE[row.family] = row
    return row


def window_table() -> tuple[ModelWindow, ...]:
    return tuple(_TABLE.values())


def window_for(model: str | None) -> ModelWindow | None:
    """The window of `model` as its agent uses it; None when the table has no family for it."""
    if not isinstance(model, str) or not model.strip():
        return None
    if model.strip().lower().endswith(ONE_MILLION_SUFFIX):
        return ModelWindow(model.strip(), ONE_MILLION, ANTHROPIC)
    return family_row(model, _TABLE)


@dataclass(frozen=True)
class LogWindow:
    tokens: int
    source: str  # where the figure comes from, in words

    def as_dict(self) -> dict:
        return {"tokens": self.tokens, "source": self.source}


def main_model(usage: list, boundaries: list | None = None) -> str | None:
    """The model the log's own compactions were counted against (the call before each, most of them), else
    the model most of the recorded calls name (the first of them on a tie)."""
    models = [u.get("model") if isinstance(u, dict) and isinstance(u.get("model"), str) and u["model"] else None
              for u in usage]
    before = [_model_before(models, b["index"]) for b in boundaries or () if isinstance(b, dict)
              and isinstance(b.get("index"), int)]
    counts = Counter(model for model in before if model) or Counter(model for model in models if model)
    return max(counts, key=lambda model: counts[model]) if counts else None


def _model_before(models: list, index: int) -> str | None:
    return next((models[i] for i in range(min(index, len(models)) - 1, -1, -1) if models[i]), None)


def _per_model(metadata: dict | None) -> dict[str, int]:
    named = (metadata or {}).get(PER_MODEL_KEY)
    return {model: tokens for model, tokens in named.items() if isinstance(tokens, int) and tokens > 0} \
        if isinstance(named, dict) else {}


def log_window(usage: list, metadata: dict | None) -> LogWindow:
    """The window of a log: its main model's as the log names it, else the log's own figure, else its main
    model's row, else Claude's 200,000."""
    facts = metadata or {}
    main = main_model(usage, facts.get("compact_boundaries"))
    per_model = _per_model(facts)
    named = facts.get(NAMED_KEY)
    if main in per_model and per_model[main] != named:
        return LogWindow(per_model[main], f"{main}, the session's main model: the log names {per_model[main]:,} for it")
    if isinstance(named, int) and not isinstance(named, bool) and named > 0:
        return LogWindow(named, facts.get(NAMED_SOURCE_KEY) or "the log names it")
    models = facts.get("models")
    listed = models if isinstance(models, list) else [facts.get("model")]
    named = next((found for found in listed if isinstance(found, str) and found.strip()), None)
    model = main or named  # what a log names without usage: its models, or its run's
    row = window_for(model)
    if row is not None:
        return LogWindow(row.tokens, f"{model}: {row.source}")
    largest = max((_carried(u) for u in usage), default=0)
    if largest > FALLBACK_WINDOW:  # a model the table does not know, whose calls carried more than Claude's
        return LogWindow(ONE_MILLION, f"{model or 'the model'} is not in the window table, and its calls carried "
                         f"up to {largest:,} tokens: 1,000,000, the larger window models offer")
    return LogWindow(FALLBACK_WINDOW, f"{model} is not in the window table: 200,000 tokens, Claude's" if model
                     else FALLBACK_SOURCE)


def _carried(usage: object) -> int:
    """Tokens a recorded call carried (0 when its usage does not say)."""
    if not isinstance(usage, dict):
        return 0
    parts = [usage.get(key) for key in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")]
    return sum(part for part in parts if isinstance(part, int) and not isinstance(part, bool))


@dataclass(frozen=True)
class CallWindow:
    index: int  # the call's message
    model: str
    tokens: int


def call_windows(usage: list, metadata: dict | None, window: int) -> dict[int, CallWindow]:
    """The calls on another model than the main one whose own window is not `window` (the session's), by
    message index: each replayed against its model's window, as the log names it, else the table's."""
    facts = metadata or {}
    main = main_model(usage, facts.get("compact_boundaries"))
    per_model = _per_model(facts)
    found: dict[int, CallWindow] = {}
    for index, entry in enumerate(usage):
        model = entry.get("model") if isinstance(entry, dict) else None
        if not isinstance(model, str) or not model or model == main:
            continue
        row = window_for(model)
        tokens = per_model.get(model) or (row.tokens if row is not None else None)
        if tokens is not None and tokens != window:
            found[index] = CallWindow(index, model, tokens)
    return found
