"""How each call of a replay is billed: at the prices the person set, when they set any; else, as the log
says, at the price of the model that call's response names (or the run's, when the log names one for the
whole run only: measures/prices.py), with the cache lifetime the log's writes show (a 1-hour write costs
2 x input, a 5-minute one 1.25 x, and the cache expires after that lifetime). A model the table lacks, or a conversation that names none, is priced at the default
prices and said once, never at $0.

A log whose calls never read nor wrote a cache (an agent run without prompt caching: no call after the
first, past the smallest prefix a provider caches, records any) is priced with no cache on every side (lifetime NO_CACHE):
no replay, of any strategy, reads from a cache its agent never had.
"""

from dataclasses import dataclass

from compaction.measures.cache import expired
from compaction.measures.cost import DEFAULT_PRICES, Prices
from compaction.measures.prices import (
    FALLBACK_NOTE,
    ModelPrice,
    cache_writes,
    price_for,
    recorded_call_cost,
    recorded_parts,
)

NO_CACHE = "none"  # the log's agent used no prompt cache
LIFETIME_S = {"5m": 5 * 60, "1h": 60 * 60, NO_CACHE: 0}
CACHEABLE_TOKENS = 1_024  # the smallest prompt prefix the providers cache (Anthropic's and OpenAI's minimum)
NO_MODEL = "the conversation names no model: priced at the default prices ($3 / $15 per million tokens)"


@dataclass(frozen=True)
class CallPrice:
    """What one call is billed at: a table row or the person's prices, and its cache lifetime."""

    tariff: ModelPrice | Prices
    lifetime: str  # "5m" or "1h": of the writes this call makes, and of the cache entries it reads; NO_CACHE

    @property
    def ttl_s(self) -> int:
        return LIFETIME_S[self.lifetime]

    def holds(self, previous_time: str | None, time: str | None) -> bool:
        """Whether the cache still holds what the call at `previous_time` wrote, at `time`."""
        return self.lifetime != NO_CACHE and not expired(previous_time, time, self.ttl_s)

    def cached(self, read: int, write: int, output: int) -> float:
        """A call that read `read` tokens from the cache and wrote `write` (at this call's lifetime); with
        no cache, all of it is input at the input price."""
        if self.lifetime == NO_CACHE:
            return self.tariff.cost(read + write, 0, 0, 0, output)
        five, hour = (0, write) if self.lifetime == "1h" else (write, 0)
        return self.tariff.cost(0, five, hour, read, output)

    def plain(self, input_tokens: int, output: int) -> float:
        """The same tokens with no caching at all."""
        return self.tariff.cost(input_tokens, 0, 0, 0, output)

    def as_recorded(self, usage: dict, output: int) -> float:
        """A call that sent what the agent sent: its own recorded reads and writes, at this call's price."""
        return self.tariff.cost(*recorded_parts(usage), output)


def _lifetime(usage: dict | None) -> str | None:
    """The lifetime of a recorded call's cache writes, when its usage splits them (the larger part wins)."""
    if not isinstance(usage, dict) or ("cache_write_1h_tokens" not in usage and "cache_write_5m_tokens" not in usage):
        return None
    five, hour = cache_writes(usage)
    return "1h" if hour > five else "5m"


def records_no_cache(recorded: list[dict]) -> bool:
    """Whether a log's recorded calls say its agent used no prompt cache: a call after the first (one that
    could have read what the one before it wrote) sent more than a provider caches, and no call read or wrote
    any."""
    parts = [recorded_parts(entry) for entry in recorded]
    return any(sum(found) > CACHEABLE_TOKENS for found in parts[1:]) and not any(sum(found[1:]) for found in parts)


class Billing:
    """The price of every call of one replay of a conversation whose per-message `usage` is given."""

    def __init__(self, usage: list, override: Prices | None = None, run_model: str | None = None):
        """`run_model`: the model the log names for the whole run (its totals), at which every call whose
        usage names none is priced."""
        self.usage = usage
        self.override = override
        self.run_model = run_model
        self.notes: dict[str, None] = {}  # said once each, in order
        self._cache: dict[int, CallPrice] = {}
        recorded = [entry for entry in usage if isinstance(entry, dict)]
        lifetimes = [found for entry in recorded if (found := _lifetime(entry))]
        # a call whose usage does not split its writes takes the log's usual lifetime (5 minutes without any)
        self.log_lifetime = max(("5m", "1h"), key=lifetimes.count) if lifetimes else "5m"
        self.log_lifetimes = tuple(sorted(set(lifetimes)))
        if records_no_cache(recorded):
            self.log_lifetime, self.log_lifetimes = NO_CACHE, (NO_CACHE,)
        self._models = [entry.get("model") if isinstance(entry, dict) else None for entry in usage]
        if override is None and not run_model and not any(isinstance(model, str) and model for model in self._models):
            self.notes[NO_MODEL] = None

    def model_at(self, index: int) -> str | None:
        """The model of the call at message `index`: its own response's, else the nearest earlier one's,
        else the run's."""
        for position in range(min(index, len(self._models) - 1), -1, -1):
            model = self._models[position]
            if isinstance(model, str) and model:
                return model
        return self.run_model

    def at(self, index: int) -> CallPrice:
        found = self._cache.get(index)
        if found is None:
            usage = self.usage[index] if index < len(self.usage) else None
            lifetime = _lifetime(usage) or self.log_lifetime
            found = self._cache[index] = CallPrice(self._tariff(index), lifetime)
        return found

    def _tariff(self, index: int) -> ModelPrice | Prices:
        if self.override is not None:
            return self.override
        model = self.model_at(index)
        row = price_for(model)
        if row is not None:
            return row
        if model:
            self.notes[f"{model} is not in the price table: {FALLBACK_NOTE}"] = None
        return DEFAULT_PRICES

    def recorded_cost(self, index: int) -> float | None:
        """What the log's own call at message `index` cost, at its model's price (or the fallback's)."""
        usage = self.usage[index] if index < len(self.usage) else None
        if not isinstance(usage, dict):
            return None
        cost, priced_by = recorded_call_cost(usage, self.override or DEFAULT_PRICES)
        if priced_by.endswith(FALLBACK_NOTE) and self.override is None:
            self.notes[priced_by] = None
        return cost
