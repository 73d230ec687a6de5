"""How a replay was priced and what the session really cost, in words (Replay, Compare, the report).

Each call is priced as the log says (its response's model in the bundled table, the log's cache
lifetime) unless the person set prices; a model the table lacks, or a conversation naming none, is
priced at today's defaults and said (the replay's `price_notes`). What the session cost is the log's
own usage at those prices (`recorded_cost_usd`). No Streamlit here.
"""

from collections import Counter

from compaction.measures import DEFAULT_PRICES
from compaction.replay import ReplayResult
from dashboard.render.units import dollars

LIFETIME_WORDS = {"5m": "5-minute", "1h": "1-hour"}


def models_used(result: ReplayResult) -> list[tuple[str, int]]:
    """(model, calls) of the log's responses, most calls first."""
    counts = Counter(call.measures.recorded.get("model") for call in result.calls
                     if call.measures is not None and call.measures.recorded and call.measures.recorded.get("model"))
    return counts.most_common()


def priced_sentence(result: ReplayResult) -> str:
    """'Priced as the log says: claude-sonnet-4-5 (320 calls), 5-minute cache writes.' and the like."""
    totals = result.totals
    notes = [note[0].upper() + note[1:] + "." for note in totals["price_notes"]]
    if result.prices is not None:
        prices = result.prices
        return (f"Priced at your prices: ${prices.input:,.2f} input and ${prices.output:,.2f} output per million "
                f"tokens, cache writes {prices.cache_write:g}× (5 minutes) or {prices.cache_write_1h:g}× (1 hour) "
                f"and reads {prices.cache_read:g}× the input price.")
    models = models_used(result)
    if not models:
        notes = [note for note in notes if "names no model" not in note]
        return " ".join([f"Priced at today's defaults, as the conversation names no model: "
                         f"${DEFAULT_PRICES.input:,.2f} input and ${DEFAULT_PRICES.output:,.2f} output per million "
                         f"tokens, 5-minute cache writes {DEFAULT_PRICES.cache_write:g}× and reads "
                         f"{DEFAULT_PRICES.cache_read:g}× the input price.", *notes])
    named = ", ".join(f"{model} ({calls:,} call{'s' if calls != 1 else ''})" for model, calls in models[:4])
    more = f" and {len(models) - 4:,} more" if len(models) > 4 else ""
    lifetimes = totals["cache_lifetimes"]
    cache = (" and ".join(LIFETIME_WORDS.get(name, name) for name in lifetimes) + " cache writes, as the log's"
             if lifetimes else "5-minute cache writes (the log splits none)")
    return " ".join([f"Priced as the log says: each call at its response's model, {named}{more}; {cache}.", *notes])


def session_cost_text(result: ReplayResult) -> str:
    """The recorded cost as a metric value: '$9.98', or '–' when the log recorded no usage."""
    return dollars(result.totals["recorded_cost_usd"])


def session_cost_sentence(result: ReplayResult) -> str:
    """What this session cost, according to its own log, or why that is unknown."""
    recorded = result.totals["recorded_cost_usd"]
    if recorded is None:
        return ("What this session cost is unknown: the file records no usage. The costs here are what its calls "
                "would cost, modelled.")
    return (f"What this session cost: {dollars(recorded)}, each response's recorded usage (input, cache writes of "
            "each lifetime, cache reads, output) at its model's price. The costs beside it are modelled the same "
            "way for every strategy.")
