"""How a replay was priced and what the session really cost, in words (Replay, Compare, the report).

Each call is priced as the log says (its response's model in the bundled table, the log's cache
lifetime) unless the person set prices; a model the table lacks, or a conversation naming none, is
priced at today's defaults and said (the replay's `price_notes`). What the session cost is the log's
own usage at those prices (`recorded_cost_usd`), or the run's totals where the log gives only those
(`recorded_from_totals`: every per-call figure is then estimated). No Streamlit here.
"""

from collections import Counter

from compaction.importers import has_tokens, input_of
from compaction.measures import DEFAULT_PRICES, NO_CACHE, bills_cache_writes
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
    if not models and result.run_model:
        return " ".join([f"Priced at the run's model, {result.run_model}: the log names it for the whole run, not "
                         "for each call.", *notes])
    if not models:
        notes = [note for note in notes if "names no model" not in note]
        return " ".join([f"Priced at today's defaults, as the conversation names no model: "
                         f"${DEFAULT_PRICES.input:,.2f} input and ${DEFAULT_PRICES.output:,.2f} output per million "
                         f"tokens, 5-minute cache writes {DEFAULT_PRICES.cache_write:g}× and reads "
                         f"{DEFAULT_PRICES.cache_read:g}× the input price.", *notes])
    named = ", ".join(f"{model} ({calls:,} call{'s' if calls != 1 else ''})" for model, calls in models[:4])
    more = f" and {len(models) - 4:,} more" if len(models) > 4 else ""
    return " ".join([f"Priced as the log says: each call at its response's model, {named}{more}; "
                     f"{cache_words(result, [model for model, _ in models])}.", *notes])


def cache_words(result: ReplayResult, models: list[str]) -> str:
    """How the cache was billed, in the words of the models' providers: writes by lifetime for a
    provider that bills them, cached input at its lower price for one that does not."""
    writes = {bills_cache_writes(model) for model in models}
    lifetimes = result.totals["cache_lifetimes"]
    if NO_CACHE in lifetimes:
        return ("no prompt cache, as its log records none: every call's input at the input price, for every "
                "strategy")
    written = (" and ".join(LIFETIME_WORDS.get(name, name) for name in lifetimes) + " cache writes, as the log's"
               if lifetimes else "5-minute cache writes (the log splits none)")
    cached = "cached input at its model's lower price, with no charge for writing the cache"
    if writes == {False}:
        return cached
    if False in writes:
        return f"{written} where the provider bills them, else {cached}"
    return written


def session_cost_text(result: ReplayResult) -> str:
    """The recorded cost as a metric value: '$9.98', or '–' when the log recorded no usage."""
    return dollars(result.totals["recorded_cost_usd"])


def session_cost_help(result: ReplayResult) -> str:
    """The help of the recorded cost's metric: where the figure comes from."""
    if result.totals["recorded_from_totals"]:
        return ("What this session really cost, from the run's totals its log gives: the log records no call's own "
                "usage, so every per-call figure is estimated.")
    return "What this session really cost: each response's recorded usage at its model's price."


def session_cost_sentence(result: ReplayResult) -> str:
    """What this session cost, according to its own log, or why that is unknown."""
    totals = result.totals
    recorded = totals["recorded_cost_usd"]
    if recorded is None:
        return ("What this session cost is unknown: the file records no usage. The costs here are what its calls "
                "would cost, modelled.")
    if totals["recorded_from_totals"]:
        return (f"What this session cost: {dollars(recorded)}, {totals['recorded_cost_basis']}"
                f"{run_totals_words(totals['recorded_totals'])}. {TOTALS_ONLY}")
    own = (totals["recorded_totals"] or {}).get("cost_usd")
    beside = (f" The log's own figure for the run is {dollars(own)} "
              f"({totals['recorded_totals'].get('source', 'its totals')})." if own is not None else "")
    return (f"What this session cost: {dollars(recorded)}, each response's recorded usage (input, cache writes of "
            f"each lifetime, cache reads, output) at its model's price.{beside} The costs beside it are modelled the "
            "same way for every strategy.")


TOTALS_ONLY = ("The log gives only the run's totals, not each call's usage: every per-call figure here (tokens, "
               "cache reads, cost) is estimated, and the costs beside it are modelled the same way for every strategy.")


def run_totals_words(run: dict | None) -> str:
    """': 122,612 input tokens (12,000 of them read from the cache) and 1,369 output, over 12 calls' or ''."""
    if not has_tokens(run):
        return f", over {run['calls']:,} calls" if run and run.get("calls") else ""
    read = run["cache_read_input_tokens"]
    cached = f" ({read:,} of them read from the cache)" if read else ""
    calls = f", over {run['calls']:,} calls" if run.get("calls") else ""
    return f": {input_of(run):,} input tokens{cached} and {run['output_tokens']:,} output{calls}"


def cost_parts_sentence(title: str, result: ReplayResult) -> str | None:
    """The parts of a replay's cost against its log: the calls the log records (its own cost, for what the
    agent did), those it records none for, and the compaction calls, which no log records. None when the
    log records no call's cost."""
    totals = result.totals
    recorded = totals["recorded_cost_usd"]
    if recorded is None or totals["recorded_from_totals"]:
        return None
    compaction, unrecorded = totals["compaction_calls_cost_usd"], totals["unrecorded_calls_cost_usd"]
    calls = totals["summaries"]
    parts = [f"{dollars(totals['cost_usd'] - compaction - unrecorded)} for the {totals['recorded_calls']:,} calls its "
             f"log records"]
    if unrecorded:
        missing = totals["calls"] - totals["recorded_calls"]
        parts.append(f"{dollars(unrecorded)} estimated for the {missing:,} call{'s' if missing != 1 else ''} it "
                     "records no usage for")
    if calls:
        which = "its compaction call (the summary" if calls == 1 else f"its {calls:,} compaction calls (the summaries"
        parts.append(f"{dollars(compaction)} for {which}: {totals['compaction_calls_input_tokens']:,} tokens read, "
                     f"{totals['compaction_calls_output_tokens']:,} written), which no log records as a call")
    return f"{title} costs {dollars(totals['cost_usd'])}: " + ", ".join(parts[:-1]) + \
        (" and " if len(parts) > 1 else "") + parts[-1] + "."
