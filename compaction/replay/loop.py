"""Replay: the agent loop over a whole conversation, one record per model call.

Each assistant message of the original is a model call. Before it, the strategy (by default the
four-layer pipeline) runs on the history so far and its output becomes the history, as the loop's
`messages[:] = ...` does: a summary is permanent. A strategy that edits only the request (the API's
context editing) says so with `Step.carry`: that history, not the one sent, is kept for the next call. A `compact` tool call compacts once all results of
its turn are appended. A context over the model window is compacted reactively before it is sent.

Incremental: the conversation is measured once (`prepare`); the carried history shares its sizes
and caches, so appending a message measures nothing and a call costs only what its layers do.
"""

from bisect import bisect_left

from compaction.errors import SettingsError
from compaction.layers.compact_tool import compact_answered_turn, compact_calls, compact_focus
from compaction.layers.reactive import reactive_compact
from compaction.measures.cache import expired, modelled_cache_reads
from compaction.measures.cost import DEFAULT_PRICES, Prices
from compaction.measures.meter import Meter
from compaction.model.history import History, prepare, remeasured
from compaction.model.messages import content_chars
from compaction.model.settings import DEFAULTS, Settings
from compaction.model.sizes import list_chars
from compaction.replay.records import ACTIONS, MODEL_WINDOW_TOKENS, CallRecord, ReplayResult
from compaction.storage.outputs import OutputStore
from compaction.strategies import StepFunction, resolve, summaries_made
from compaction.summarizers import OfflineSummarizer, Summarizer

__all__ = ["ACTIONS", "MODEL_WINDOW_TOKENS", "CallRecord", "ReplayResult", "replay"]


def _boundaries(boundaries: list, call_indices: list[int]) -> list[dict]:
    found = []
    for boundary in boundaries:
        index = boundary.get("index") if isinstance(boundary, dict) else None
        if isinstance(index, int) and not isinstance(index, bool):
            call = bisect_left(call_indices, index)
            found.append({**boundary, "call": call if call < len(call_indices) else None})
    return found


def _new_outputs(history: History, originals: list, first_new: int, end: int, output_chars: list[int]
                 ) -> tuple[int, int]:
    """(characters of the tool outputs that arrived in originals[first_new:end], of those sent whole).

    They sit at the tail of the history unless a summary took them; a block is whole when the sent
    message still holds the original block object (layers copy what they change)."""
    produced = output_chars[end] - output_chars[first_new]
    whole = 0
    for position in range(len(history.messages) - 1, -1, -1):
        origin = history.origins[position]
        if origin is None:
            continue
        if origin < first_new:
            break
        blocks = history.result_blocks.get(origin, ())
        if not blocks:
            continue
        sent = history.messages[position]["content"]
        original = originals[origin]["content"]
        for j in blocks:
            if sent[j] is original[j]:
                whole += content_chars(original[j].get("content", ""))
    return produced, whole


def replay(conversation, settings: Settings | None = None, *, store: OutputStore | None = None,
           summarizer: Summarizer | None = None, model_window_tokens: int = MODEL_WINDOW_TOKENS,
           strategy: "str | StepFunction" = "pipeline", keep_histories: bool = True,
           prices: Prices = DEFAULT_PRICES) -> ReplayResult:
    """Replay a conversation (message list, Conversation or prepared History) through the agent loop.

    Nothing passed in is changed. `keep_histories=False` drops the per-call histories (sweeps). Each
    call is measured (measures/meter.py): what the log recorded, cache reads and writes, cost at
    `prices`, blind references; artifact retention at the end. A Conversation brings the usage and
    times the log recorded; a prepared History brings the token model calibrated on them.
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
    originals, sizes, overhead = prepared.messages, prepared.sizes, prepared.overhead
    call_indices = [i for i, m in enumerate(originals) if m.get("role") == "assistant"]
    result = ReplayResult(name, settings, model_window_tokens, histories=[] if keep_histories else None,
                          boundaries=_boundaries(prepared.recorded.boundaries, call_indices),
                          calibration=prepared.calibration, prices=prices, token_model=prepared.token_model,
                          overhead_chars=prepared.overhead)
    usage, times = prepared.recorded.usage, prepared.recorded.timestamps
    meter = Meter(prepared, usage, times, prices)
    model = prepared.token_model
    raw_previous: tuple[int, str | None] | None = None  # (characters, time) of the last raw call that could run
    history = prepared.start()  # this replay's own run: nothing remembered from another
    raw_sum = summaries = tokens_total = raw_total = first_new = 0
    compact_turns = _compact_turns(prepared)
    output_chars = _output_chars_before(prepared)
    pending: list = []  # compact-tool events since the last call
    waiting_focus: list[str | None] = []  # set while a compact call waits for its turn's results
    checked: list[int] = []
    for index, message in enumerate(originals):
        if message.get("role") == "assistant":
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
                                             f"{tokens:,} estimated tokens > model window {model_window_tokens:,}")
                if compacted.events:  # none when only the newest messages are left: sent over the window
                    history = carried = compacted.history  # the loop's own compaction is permanent
                    acted.append("reactive")
                    events += compacted.events
                    tokens = history.context_tokens
            summaries += summaries_made(events)
            raw_chars = list_chars(raw_sum, index) + overhead
            raw_tokens = model.tokens(raw_chars)
            tokens_total += tokens
            raw_total += raw_tokens
            measures = meter.call(index, history, tokens, events, settings.summary_input_cap)
            raw_runs = raw_tokens <= model_window_tokens
            raw_cost = 0.0
            if raw_runs:  # the uncompacted history only grows: its cache reads the whole previous prompt
                raw_read = min(model.tokens(raw_previous[0]), raw_tokens) \
                    if raw_previous and not expired(raw_previous[1], meter.previous_time) else 0
                raw_cost = prices.cached(raw_read, raw_tokens - raw_read, 0, measures.output_tokens)
                raw_previous = (raw_chars, meter.previous_time)
            produced, whole = _new_outputs(history, originals, first_new, index, output_chars)
            result.tool_output_chars += produced
            result.tool_output_whole_chars += whole
            first_new = index
            result.calls.append(CallRecord(
                len(result.calls), index, len(history), history.context_size, tokens, raw_chars, raw_tokens,
                tuple(acted), summaries, tokens_total, raw_total, tokens > model_window_tokens, tuple(events),
                measures, raw_cost, raw_runs))
            if keep_histories:
                result.histories.append(history)
            history = carried
        raw_sum += sizes[index]
        history = history.derive(history.messages + [message], history.sizes + [sizes[index]],
                                 history.origins + [index])
        if waiting_focus and message.get("role") == "user":
            compacted = compact_answered_turn(history, waiting_focus[0], summarizer, store)
            history = compacted.history
            pending += compacted.events
        waiting_focus = compact_turns.get(index, [])
    result.max_checked_size = max(checked) if checked else None
    result.artifact_retention = meter.retention()
    if usage:
        result.cache_check = modelled_cache_reads(model, sizes, overhead, usage, prepared.recorded.boundaries, times)
    return result


def _compact_turns(prepared: History) -> dict[int, list[str | None]]:
    """Original index -> [focus] of each message that calls the compact tool (found once per
    conversation, shared like its other indexes)."""
    def build() -> dict[int, list[str | None]]:
        return {index: [compact_focus(calls)] for index, message in enumerate(prepared.originals)
                if message.get("role") == "assistant" and (calls := compact_calls(message))}

    return prepared.shared_value("compact_turns", build)


def _output_chars_before(prepared: History) -> list[int]:
    """Characters of tool output in the original messages before each index (prefix sums)."""
    def build() -> list[int]:
        found, total = [0], 0
        for origin, message in enumerate(prepared.originals):
            if origin in prepared.result_blocks:
                content = message["content"]
                total += sum(content_chars(content[j].get("content", "")) for j in prepared.result_blocks[origin])
            found.append(total)
        return found

    return prepared.shared_value("output_chars_before", build)
