"""The Live page's words and table, as plain functions (no Streamlit): the forecast in sentences, the
newest calls as rows, and where the file was read (the offsets, so it can be seen that nothing is read
twice)."""

from compaction.live import Call, Forecast, LiveSession, range_label
from compaction.measures import bills_cache_writes

TABLE_CALLS = 20
READS_SHOWN = 5  # the newest reads named: the page rereads every 2 seconds, so a list of all would grow on


def distance_sentence(forecast: Forecast) -> str:
    if forecast.tokens_now is None:
        return f"{forecast.label} compacts at {forecast.threshold:,} tokens; no model call has been written yet."
    if forecast.tokens_left <= 0:
        return (f"{forecast.label} compacts at {forecast.threshold:,} tokens and the context already holds about "
                f"{forecast.tokens_now:,}: it compacts before the next call.")
    growth = forecast.growth_per_call
    if forecast.calls_left is None:
        pace = "one call so far, so no growth to go by yet" if growth is None else \
            "the context is not growing, so no call can be counted"
        return (f"{forecast.label} compacts at {forecast.threshold:,} tokens: {forecast.tokens_left:,} tokens away "
                f"({pace}).")
    spread, label = forecast.calls_left_range, range_label(forecast)
    likely = f"{label} likely" if label == "80 %" else f"{label}:"
    within = "" if forecast.calls_left == 1 or spread is None else \
        f" ({likely} between {spread[0]:,} and {spread[1]:,})" if spread[1] is not None else \
        f" ({likely} {spread[0]:,} or more)"
    when = "before the next call" if forecast.calls_left == 1 else f"in about {forecast.calls_left:,} calls{within}"
    return (f"{forecast.label} compacts at {forecast.threshold:,} tokens: {forecast.tokens_left:,} tokens to go, "
            f"{when}, counted by replaying the session's last growths (on average {growth:,.0f} tokens per call).")


def cost_sentence(forecast: Forecast) -> str | None:
    costs = forecast.costs
    if costs is None:
        return None
    # in the words of the model's provider: a cache write by lifetime (Anthropic), or input sent once
    # uncached that the provider caches with no charge for the write (OpenAI, Google)
    if bills_cache_writes(costs.model) is False:
        rest = f"sends the rest of the kept {forecast.kept_tokens:,} tokens uncached (cached with no charge for the write)"
    else:
        lifetime = "1-hour" if costs.lifetime == "1h" else "5-minute"
        rest = f"writes the rest of the kept {forecast.kept_tokens:,} tokens to the cache ({lifetime} writes)"
    pays = "it never pays for itself at this context" if costs.pays_back_after_calls is None else \
        "it costs less from the first call" if costs.pays_back_after_calls == 0 else \
        f"it pays for itself after about {costs.pays_back_after_calls:,} calls"
    return (f"The compaction's own call costs about ${costs.compaction_call_usd:,.4f}; the first call after it reads "
            f"the system prompt and tools ({costs.first_call_after_read_tokens:,} tokens) from the cache and {rest} "
            f"for about ${costs.first_call_after_usd:,.4f}, against ${costs.next_call_without_usd:,.4f} for the next "
            f"call without compacting. Each later call then reads less, saving about "
            f"${costs.saved_per_later_call_usd:,.4f}: {pays}. Priced as {costs.priced_by}.")


def forecast_sentences(forecast: Forecast) -> list[str]:
    found = [distance_sentence(forecast)]
    if forecast.action:
        found.append(f"It {forecast.action}. The summary's size: {forecast.summary_basis}. What it carries on "
                     f"with: {forecast.kept_basis}.")
    cost = cost_sentence(forecast)
    if cost:
        found.append(cost)
    return found


def call_row(call: Call, previous: Call | None) -> dict:
    return {"call": call.number, "line": call.line, "model": call.model or "", "tokens": call.context,
            "growth": None if previous is None else call.context - previous.context,
            "cache read": call.read, "cache written": call.write_5m + call.write_1h, "output": call.output,
            "cost (US$)": call.cost_usd, "compactions before": call.segment}


def calls_rows(session: LiveSession, count: int = TABLE_CALLS) -> list[dict]:
    """The newest `count` calls, newest first."""
    total = len(session.calls)
    rows = []
    for index in range(total - 1, max(total - count, 0) - 1, -1):
        rows.append(call_row(session.calls[index], session.calls[index - 1] if index else None))
    return rows


def reads_sentence(source, shown: int = READS_SHOWN) -> str:
    """'Reads of the file (the last 5 of 212, oldest first): read 208: bytes 0 to 5,210 (12 new lines); ...'"""
    if not source.reads:
        return "Nothing read yet."
    unit = source.unit
    parts = []
    newest = list(source.reads)[-shown:]
    for read in newest:
        waiting = f", {read.partial:,} bytes of a line not finished" if read.partial else ""
        again = f", from the start again: {read.restarted}" if read.restarted else ""
        parts.append(f"read {read.number:,}: bytes {read.start:,} to {read.end:,} ({read.lines:,} new {unit}s"
                     f"{waiting}{again})")
    total = newest[-1].number
    which = "every read" if total == len(newest) else \
        f"the last {len(newest):,} of {total:,}; only reads that found something new are counted"
    whole = f" A {source.title} .json recording is rewritten whole at every message, so each read is the whole " \
        "file." if source.whole else ""
    again = f"{source.restarts:,} time{'s' if source.restarts != 1 else ''}"
    return (f"Reads of the file ({which}, oldest first): " + "; ".join(parts) + f". Read from the start again: "
            f"{again}." + whole)
