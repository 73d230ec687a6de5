"""The measures of each call of a replay: what was recorded, cache reads and writes, cost, blind
references; and, at the end, artifact retention. The replay calls `Meter.call` once per model call
with the history it sends; sweeps and corpora aggregate the same records."""

from dataclasses import dataclass

from compaction.measures.billing import Billing
from compaction.measures.cache import CacheUse, cache_reads, shared_prefix_chars
from compaction.measures.loss import SentView, artifact_retention, artifacts, blind_references
from compaction.measures.prices import recorded_parts
from compaction.measures.terms import TermIndex
from compaction.model.calibration import recorded_context
from compaction.model.events import SummaryEvent
from compaction.model.history import History


@dataclass(slots=True)
class CallMeasures:
    """What one call was measured at; built once, by keyword, and read as plain data after."""

    recorded: dict | None  # what the log recorded for this call, with its context_tokens; None without usage
    cache_read: int
    cache_write: int
    cache_broken: bool  # the prompt did not start with the whole previous prompt (a layer rewrote it)
    output_tokens: int  # recorded, else estimated from the response
    cost_usd: float  # with caching, summaries written before the call included
    cost_usd_no_cache: float
    blind: tuple[str, ...]  # terms the response uses that are no longer sent
    # the compaction calls made before this call (each summary is a model call of its own, which no log
    # records as a call): their part of `cost_usd`, and their tokens
    compaction_cost_usd: float = 0.0
    compaction_input_tokens: int = 0
    compaction_output_tokens: int = 0



def term_index(prepared: History) -> TermIndex:
    """The conversation's TermIndex, built once and shared by every history derived from it."""
    return prepared.shared_value("terms", lambda: TermIndex(prepared.originals))


def conversation_artifacts(prepared: History, until: int) -> list:
    """The artifacts of the original messages before `until` (loss.artifacts), found once per conversation."""
    return prepared.shared_value(("artifacts", until), lambda: artifacts(prepared.originals, until))


def summary_tokens(events, prepared: History, input_cap: int) -> tuple[int, int]:
    """(input, output) tokens of the summaries written in `events` (each is a model call of its own): the
    input the log names (the agent's own compaction), else what the summary replaced, up to `input_cap`."""
    model, sizes = prepared.token_model, prepared.sizes
    tokens_in = tokens_out = 0
    for event in events:
        if isinstance(event, SummaryEvent) and event.succeeded:
            if event.input_tokens is not None:
                tokens_in += event.input_tokens
            else:
                chars = sum(sizes[i] for i in event.summarized_indices if 0 <= i < len(sizes))
                tokens_in += model.tokens(min(chars, input_cap) + prepared.overhead)
            tokens_out += model.content_tokens(len(event.text))
    return tokens_in, tokens_out


class Meter:
    def __init__(self, prepared: History, usage: list, times: list, billing: Billing, loss: bool = True):
        self.prepared = prepared
        self.usage = usage
        self.times = times
        self.billing = billing
        self.index = term_index(prepared) if loss else None
        self.previous: History | None = None
        self.previous_tokens: int | None = None
        self.previous_time: str | None = None
        self.last_view: SentView | None = None
        self.last_index = 0

    def call(self, index: int, sent: History, context_tokens: int, events, input_cap: int,
             exact: bool = False) -> CallMeasures:
        """The measures of the call that produced the original message `index`, sending `sent`; `exact`:
        `sent` is what the agent sent at that call, so its cache reads and writes are the recorded ones."""
        previous = self.previous
        shared = None if previous is None else (lambda: shared_prefix_chars(previous, sent))
        self.previous = sent
        return self.measure(index, shared, sent.overhead, SentView(sent), context_tokens, events, input_cap,
                            exact=exact)

    def measure(self, index: int, shared, overhead: int, view: SentView, context_tokens: int, events,
                input_cap: int, summaries: int | None = None, exact: bool = False) -> CallMeasures:
        """The measures of the call at message `index`, whatever loop made it: `shared()` gives (characters
        of its messages identical to the start of the previous call's, whether that prompt was rewritten),
        asked only when the cache still holds the previous prompt; None for the first call. `view` is
        what the call sends; `summaries`, when known, how many of `events` are summaries written; `exact` as
        in `call`."""
        model = self.prepared.token_model
        usage = self.usage[index] if index < len(self.usage) else None
        price = self.billing.at(index)
        recorded = None if usage is None else {
            **usage, "model": self.billing.model_at(index), "context_tokens": recorded_context(usage),
            "cost_usd": self.billing.recorded_cost(index)}
        time = self.times[index] if index < len(self.times) else None
        as_sent = usage if exact else None  # the agent's own call: its recorded reads and writes
        if as_sent is not None:
            _, five, hour, read = recorded_parts(as_sent)
            cache = CacheUse(read, five + hour, False)
        elif shared is None or not price.holds(self.previous_time, time):
            cache = CacheUse(0, context_tokens, False)
        else:
            cache = cache_reads(model, overhead, shared(), context_tokens, self.previous_tokens)
        self.previous_tokens, self.previous_time = context_tokens, time
        output = usage["output_tokens"] if usage else model.content_tokens(self.prepared.sizes[index])
        summary_in, summary_out = (0, 0) if summaries == 0 else summary_tokens(events, self.prepared, input_cap)
        own = price.as_recorded(as_sent, output) if as_sent is not None \
            else price.cached(cache.read, cache.write, output)
        compaction = price.plain(summary_in, summary_out)
        cost = own + compaction
        cost_no_cache = price.plain(context_tokens + summary_in, output + summary_out)
        blind = blind_references(self.index, index, view) if self.index is not None else ()
        self.last_view, self.last_index = view, index
        return CallMeasures(recorded=recorded, cache_read=cache.read, cache_write=cache.write,
                            cache_broken=cache.broken, output_tokens=output, cost_usd=cost,
                            cost_usd_no_cache=cost_no_cache, blind=blind, compaction_cost_usd=compaction,
                            compaction_input_tokens=summary_in, compaction_output_tokens=summary_out)

    def retention(self) -> float | None:
        """At the last call: the share of the original's artifacts still present verbatim."""
        if self.index is None or self.last_view is None:
            return None
        found = conversation_artifacts(self.prepared, self.last_index)
        return artifact_retention(found, self.index, self.last_view)
