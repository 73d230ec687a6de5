"""What one of the log's own compactions cost: the compaction call itself, and the prompt cache the first
call after it wrote again (everything after the system prompt and tools is new to the cache then).

The compaction call is not in the log (the agents' logs record no usage for it): it sends the
conversation as it stood, the tokens before, which the cache still holds, and writes the summary. So it
is priced as the tokens before read from the cache plus the summary's tokens as output, at the model of
the call before; a compaction the log shows no summary of (a truncation) is priced no call. The first
call after is priced from its own recorded usage: its uncached input and its cache writes (of each
lifetime), at its own model. Both at the price table's row for the model, else at the prices given.
"""

from dataclasses import dataclass

from compaction.measures.cost import Prices
from compaction.measures.prices import price_for, recorded_parts


@dataclass(frozen=True)
class CompactionCost:
    call_usd: float | None  # the compaction call itself (estimated: see the module)
    written_again_usd: float | None  # the cache written again by the first call after (recorded)
    written_again_tokens: int | None  # its uncached input and cache writes
    basis: str

    @property
    def total_usd(self) -> float | None:
        parts = [part for part in (self.call_usd, self.written_again_usd) if part is not None]
        return sum(parts) if parts else None

    def as_dict(self) -> dict:
        def rounded(value: float | None) -> float | None:
            return None if value is None else round(value, 6)

        return {"total_usd": rounded(self.total_usd), "compaction_call_usd": rounded(self.call_usd),
                "cache_written_again_usd": rounded(self.written_again_usd),
                "cache_written_again_tokens": self.written_again_tokens, "basis": self.basis}


def _row_or(usage: dict | None, fallback: Prices):
    model = usage.get("model") if isinstance(usage, dict) and isinstance(usage.get("model"), str) else None
    return price_for(model) or fallback


def compaction_cost(tokens_before: int | None, summary_tokens: int, before: dict | None, after: dict | None,
                    fallback: Prices) -> CompactionCost:
    """The cost of a compaction that read `tokens_before` and wrote `summary_tokens`, between the calls whose
    recorded usage is `before` (the last call before it) and `after` (the first call after it)."""
    words = []
    call = None
    if not summary_tokens:
        words.append("the log holds no summary (a truncation writes none): a compaction call, if the agent made one, is not priced")
    elif tokens_before:
        call = _row_or(before, fallback).cost(0, 0, 0, tokens_before, summary_tokens)
        words.append(f"the compaction call, estimated: {tokens_before:,} tokens read from the cache and a "
                     f"{summary_tokens:,}-token summary written")
    again = tokens = None
    if isinstance(after, dict):
        uncached, five_minutes, one_hour, _ = recorded_parts(after)
        tokens = uncached + five_minutes + one_hour
        again = _row_or(after, fallback).cost(uncached, five_minutes, one_hour, 0, 0)
        words.append(f"the first call after, as recorded: {tokens:,} tokens sent afresh and written to the cache")
    return CompactionCost(call, again, tokens, "; ".join(words) or "the log records nothing to price")
