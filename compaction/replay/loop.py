"""Replay: the agent loop over a whole conversation, one record per model call.

Each assistant message of the original is a model call. Before it, the strategy (by default the
four-layer pipeline) runs on the history so far and its output becomes the history, as the loop's
`messages[:] = ...` does: a summary is permanent. A strategy that edits only the request (the API's
context editing) says so with `Step.carry`: that history, not the one sent, is kept for the next call.
A `compact` tool call compacts once all results of its turn are appended. A context over the model
window is compacted reactively before it is sent.

Exact where the log knows: until the strategy first changes the history (and before the log's own first
compaction), what a call sends is exactly what the agent sent, so its tokens are the ones the log
recorded, not an estimate; the estimate starts where the two histories part (`ReplayResult.parting_call`).
Each call is priced as the log says (its response's model, its cache lifetime: measures/billing.py)
unless the person set prices.

Incremental: the conversation is measured once (`prepare`); the carried history shares its sizes
and caches, so appending a message measures nothing and a call costs only what its layers do.
"""

from compaction.errors import SettingsError
from compaction.layers.compact_tool import compact_answered_turn
from compaction.layers.reactive import reactive_compact
from compaction.measures.billing import Billing
from compaction.measures.cache import expired, modelled_cache_reads
from compaction.measures.cost import Prices
from compaction.measures.meter import Meter
from compaction.model.calibration import recorded_context
from compaction.model.history import History, prepare, remeasured
from compaction.model.settings import DEFAULTS, Settings
from compaction.model.sizes import list_chars
from compaction.replay import lookups
from compaction.replay.records import ACTIONS, MODEL_WINDOW_TOKENS, CallRecord, ReplayResult
from compaction.storage.outputs import OutputStore
from compaction.strategies import StepFunction, resolve, summaries_made
from compaction.summarizers import OfflineSummarizer, Summarizer

__all__ = ["ACTIONS", "MODEL_WINDOW_TOKENS", "CallRecord", "ReplayResult", "replay"]


class _Uncompacted:
    """The same session never compacted: what each call would send, and what it would cost with its
    cache reading the whole previous prompt (the history only grows), until the window refuses it. The
    summaries the agent itself wrote when it compacted are not part of it."""

    def __init__(self, prepared: History, billing: Billing, window: int, from_log: bool = True):
        self.prepared, self.billing, self.window, self.from_log = prepared, billing, window, from_log
        self.before = lookups.first_boundary_index(prepared)  # until then, it is what the agent sent
        # at the call right after the log's first compaction, the log says what the whole history held
        # then: the agent's count when it decided to compact (preTokens)
        first = min((b for b in prepared.recorded.boundaries if isinstance(b, dict) and b.get("index") == self.before),
                    key=lambda b: b["index"], default=None)
        self.pre_tokens = first.get("pre_tokens") if first else None
        self.after_boundary = next((i for i in range(self.before, len(prepared.messages))
                                    if prepared.messages[i].get("role") == "assistant"), None)
        self.chars_so_far = 0  # characters of the messages before the current one
        self.count = 0  # how many messages those are
        self.previous: tuple[int, str | None] | None = None  # (tokens, time) of the last call that could run

    def context_chars(self) -> int:
        return list_chars(self.chars_so_far, self.count) + self.prepared.overhead

    def known(self, index: int) -> int | None:
        """The tokens the whole history held at the call at `index`, where the log says it."""
        if not self.from_log:
            return None
        usage = self.prepared.recorded.usage
        if index < self.before:
            return recorded_context(usage[index]) if index < len(usage) else None
        if index == self.after_boundary and isinstance(self.pre_tokens, int) and self.pre_tokens > 0:
            return self.pre_tokens
        return None

    def call(self, index: int, output_tokens: int, time: str | None) -> tuple[int, int, bool, float]:
        """(characters, tokens, whether the window accepts it, cost) of the call at message `index`."""
        prepared = self.prepared
        chars = self.context_chars()
        usage = prepared.recorded.usage[index] if index < len(prepared.recorded.usage) else None
        known = self.known(index)
        tokens = known if known else prepared.token_model.tokens(chars)
        runs = tokens <= self.window
        cost = 0.0
        if runs:
            price = self.billing.at(index)
            fresh = self.previous is None or expired(self.previous[1], time, price.ttl_s)
            read = 0 if fresh else min(self.previous[0], tokens)
            # what the agent sent, until its own first compaction: its recorded reads and writes
            cost = price.as_recorded(usage, output_tokens) if known and index < self.before \
                else price.cached(read, tokens - read, output_tokens)
            self.previous = (tokens, time)
        return chars, tokens, runs, cost

    def append(self, index: int) -> None:
        if index not in self.prepared.recorded.agent_summaries:
            self.chars_so_far += self.prepared.sizes[index]
            self.count += 1


def replay(conversation, settings: Settings | None = None, *, store: OutputStore | None = None,
           summarizer: Summarizer | None = None, model_window_tokens: int = MODEL_WINDOW_TOKENS,
           strategy: "str | StepFunction" = "pipeline", keep_histories: bool = True,
           prices: Prices | None = None, from_log: bool = True) -> ReplayResult:
    """Replay a conversation (message list, Conversation or prepared History) through the agent loop.

    Nothing passed in is changed. `keep_histories=False` drops the per-call histories (sweeps). Each
    call is measured (measures/meter.py): what the log recorded, cache reads and writes, cost, blind
    references; artifact retention at the end. `prices` None prices each call as the log says (its
    model's row of the price table); given, every call is priced at them. A Conversation brings the usage
    and times the log recorded; a prepared History brings the token model calibrated on them.
    `from_log=False` estimates every call's tokens and cache use as if the log had recorded nothing but
    the fit of its token model (how far the models alone come, against the log: benchmarks).
    """
    settings = settings or DEFAULTS
    if isinstance(model_window_tokens, bool) or not isinstance(model_window_tokens, int) \
            or model_window_tokens < 1:
        raise SettingsError(f"the model window must be a positive number of tokens, got {model_window_tokens!r}")
    name, step = resolve(strategy)
    prepared = prepare(conversation)
    if prepared.messages is not prepared.originals:  # a layer's output: its origins are not 0..n-1
        prepared = remeasured(prepared.messages, prepared.prepared)
    store = store or OutputStore.temporary()
    summarizer = summarizer or OfflineSummarizer()
    originals, sizes = prepared.messages, prepared.sizes
    usage, times = prepared.recorded.usage, prepared.recorded.timestamps
    billing = Billing(usage, prices)
    call_indices = [i for i, m in enumerate(originals) if m.get("role") == "assistant"]
    result = ReplayResult(name, settings, model_window_tokens, histories=[] if keep_histories else None,
                          boundaries=lookups.boundaries_by_call(prepared.recorded.boundaries, call_indices),
                          calibration=prepared.calibration, prices=prices, token_model=prepared.token_model,
                          overhead_chars=prepared.overhead)
    meter = Meter(prepared, usage, times, billing)
    uncompacted = _Uncompacted(prepared, billing, model_window_tokens, from_log)
    history = prepared.start()  # this replay's own run: nothing remembered from another
    pristine = True  # no layer has changed the history yet: it is what the agent sent
    summaries = tokens_total = raw_total = first_new = 0
    compact_turns = lookups.compact_turns(prepared)
    output_chars = lookups.output_chars_before(prepared)
    pending: list = []  # compact-tool events since the last call
    waiting_focus: list[str | None] = []  # set while a compact call waits for its turn's results
    checked: list[int] = []
    agent_summaries = prepared.recorded.agent_summaries
    for index, message in enumerate(originals):
        if message.get("role") == "assistant":
            whole = uncompacted.known(index)  # what the whole history held, where the log says it
            if whole is not None:
                exact = pristine and index < uncompacted.before  # the agent sent this very history
                history = history.knowing(whole) if exact else history.anchored(whole, uncompacted.context_chars())
            given = history
            done = step(history, settings, store, summarizer)
            history, carried = done.history, done.kept  # an edit of this request only leaves `carried` whole
            if done.checked_size is not None:
                checked.append(done.checked_size)
            acted = (["compact_tool"] if pending else []) + list(done.acted)
            events = pending + list(done.events)
            pending = []
            tokens = history.context_tokens
            if tokens > model_window_tokens:
                compacted = reactive_compact(history, settings, summarizer, store,
                                             f"{tokens:,} tokens > model window {model_window_tokens:,}")
                if compacted.events:  # none when only the newest messages are left: sent over the window
                    history = carried = compacted.history  # the loop's own compaction is permanent
                    acted.append("reactive")
                    events += compacted.events
                    tokens = history.context_tokens
            pristine = pristine and not acted and history is given
            summaries += summaries_made(events)
            # known tokens mean the history is what the agent sent (set while pristine, or by as-recorded)
            measures = meter.call(index, history, tokens, events, settings.summary_input_cap,
                                  history.known_tokens is not None)
            raw_chars, raw_tokens, raw_runs, raw_cost = uncompacted.call(index, measures.output_tokens,
                                                                         meter.previous_time)
            tokens_total += tokens
            raw_total += raw_tokens
            produced, whole = lookups.new_outputs(history, first_new, index, output_chars)
            result.tool_output_chars += produced
            result.tool_output_whole_chars += whole
            first_new = index
            result.calls.append(CallRecord(
                len(result.calls), index, len(history), history.context_size, tokens, raw_chars, raw_tokens,
                tuple(acted), summaries, tokens_total, raw_total, tokens > model_window_tokens, tuple(events),
                measures, raw_cost, raw_runs, history.known_tokens is not None))
            if keep_histories:
                result.histories.append(history)
            history = carried
        uncompacted.append(index)
        if index in agent_summaries:  # the agent's own summary exists only because it compacted: a what-if
            continue                  # never sees it (the as-recorded strategy puts it back where it was)
        history = history.derive(history.messages + [message], history.sizes + [sizes[index]],
                                 history.origins + [index])
        if waiting_focus and message.get("role") == "user":
            compacted = compact_answered_turn(history, waiting_focus[0], summarizer, store)
            history = compacted.history
            pending += compacted.events
        waiting_focus = compact_turns.get(index, [])
    result.max_checked_size = max(checked) if checked else None
    result.artifact_retention = meter.retention()
    result.price_notes = tuple(billing.notes)
    result.cache_lifetimes = billing.log_lifetimes
    if usage:
        result.cache_check = modelled_cache_reads(prepared.token_model, sizes, prepared.overhead, usage,
                                                  prepared.recorded.boundaries, times,
                                                  billing.at(call_indices[0]).ttl_s if call_indices else 300)
    return result
