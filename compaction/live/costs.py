"""What a compaction costs in the calls around it, at the newest call's model price and cache lifetime
(measures/prices.py, measures/billing.py: a 1-hour write costs 2 x input, a 5-minute one 1.25 x; OpenAI
and Google charge nothing extra for writing).

- the compaction's own call: it sends the whole context (read from the cache) and writes the summary;
- the first call after it: the system prompt and tools are the same as before, so it reads them from the
  cache (the session's own figure: session.prefix_tokens) and writes the rest of what was kept;
- against going on: the next call without compacting reads the context from the cache and writes only
  what was added; each later call then reads the whole context instead of the kept one, which is what a
  compaction saves per call, and the number of calls that pays for it.
Output tokens are the session's recent mean.
"""

import math
from dataclasses import asdict, dataclass

from compaction.live.rules import Kept
from compaction.live.session import LiveSession
from compaction.measures.billing import CallPrice
from compaction.measures.cost import DEFAULT_PRICES
from compaction.measures.prices import FALLBACK_NOTE, price_for


@dataclass(frozen=True)
class Costs:
    model: str | None
    priced_by: str  # the price table's family, or why the default prices were used
    lifetime: str  # of the cache writes: "5m" or "1h"
    compaction_call_usd: float
    first_call_after_usd: float
    first_call_after_read_tokens: int  # the system prompt and tools it reads from the cache
    next_call_without_usd: float
    saved_per_later_call_usd: float
    pays_back_after_calls: int | None  # None when nothing is saved per call

    def as_dict(self) -> dict:
        return {key: round(value, 6) if isinstance(value, float) else value for key, value in asdict(self).items()}


def price_now(session: LiveSession) -> tuple[CallPrice, str | None, str]:
    newest = session.newest
    model = newest.model if newest is not None else None
    row = price_for(model)
    if row is not None:
        return CallPrice(row, session.lifetime()), model, row.family
    reason = f"{model} is not in the price table" if model else "the log names no model"
    return CallPrice(DEFAULT_PRICES, session.lifetime()), model, f"{reason}: {FALLBACK_NOTE}"


def compaction_costs(session: LiveSession, context: int, tokens_now: int, kept: Kept,
                     growth: float | None) -> Costs:
    price, model, priced_by = price_now(session)
    output = round(session.output_per_call())
    added = tokens_now - context
    compaction = price.cached(context, added, kept.summary_tokens)
    cached = min(session.prefix_tokens or 0, kept.tokens)
    first_after = price.cached(cached, kept.tokens - cached, output)
    going_on = price.cached(context, max(added, round(growth or 0)), output)
    saved = price.cached(max(tokens_now - kept.tokens, 0), 0, 0)
    extra = compaction + first_after - going_on
    pays_back = 0 if extra <= 0 else math.ceil(extra / saved) if saved > 0 else None
    return Costs(model, priced_by, price.lifetime, compaction, first_after, cached, going_on, saved, pays_back)
