"""The plain agent loop: before every call, the strategy's step on the whole history carried so far.

Each assistant message of the original is a model call. Before it, the step runs on the history so far
and its output becomes the history, as the tutorial's `messages[:] = ...` does: a summary is permanent.
A strategy that edits only the request (the API's context editing) says so with `Step.carry`: that
history, not the one sent, is kept for the next call. A `compact` tool call compacts once all results of
its turn are appended. A context over the model window is compacted reactively before it is sent.

This loop runs every strategy without an incremental form, and is the reference the incremental loop
(incremental.py) is tested against, call by call.
"""

from compaction.layers.compact_tool import compact_answered_turn
from compaction.layers.reactive import reactive_compact
from compaction.model.settings import Settings
from compaction.replay import lookups
from compaction.replay.context import ReplayContext
from compaction.replay.records import CallRecord, ReplayResult
from compaction.replay.uncompacted import Uncompacted
from compaction.strategies import StepFunction, summaries_made


def replay_plain(context: ReplayContext, settings: Settings, step: StepFunction) -> ReplayResult:
    prepared, store, summarizer, window = context.prepared, context.store, context.summarizer, context.window
    originals, sizes = prepared.messages, prepared.sizes
    result = context.new_result(settings)
    meter = context.new_meter()
    uncompacted = Uncompacted(prepared, context.billing, window, context.from_log)
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
            if tokens > window:
                compacted = reactive_compact(history, settings, summarizer, store,
                                             f"{tokens:,} tokens > model window {window:,}")
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
                tuple(acted), summaries, tokens_total, raw_total, tokens > window, tuple(events),
                measures, raw_cost, raw_runs, history.known_tokens is not None))
            if result.histories is not None:  # kept when context.keep_histories
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
    return context.finish(result, meter, meter.retention())
