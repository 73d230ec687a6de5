"""The reference loop, the agent's loop as written: before every call, the strategy's step on the whole history carried so far.

Each assistant message of the original is a model call. Before it, the step runs on the history so far
and its output becomes the history, as the tutorial's `messages[:] = ...` does: a summary is permanent.
A strategy that edits only the request (the API's context editing) says so with `Step.carry`: that
history, not the one sent, is kept for the next call. The call's bookkeeping (the recorded anchor, the
compact tool, reactive compaction, the totals, the record) is the protocol's (protocol.py).

This loop runs every strategy without an incremental form (and any strategy with `plain=True`). It is the
reference: the incremental loop (incremental.py) and the sweep's kernel (compaction/sweep/kernel) are
tested against it, call by call.
"""

from compaction.model.settings import Settings
from compaction.replay.context import ReplayContext
from compaction.replay.protocol import CallProtocol
from compaction.replay.records import ReplayResult
from compaction.strategies import StepFunction, summaries_made


def replay_reference(context: ReplayContext, settings: Settings, step: StepFunction) -> ReplayResult:
    prepared, store, summarizer = context.prepared, context.store, context.summarizer
    protocol = CallProtocol(context, settings)
    history = prepared.start()  # this replay's own run: nothing remembered from another
    for index, message in enumerate(prepared.messages):
        if message.get("role") == "assistant":
            anchor = protocol.anchor(index, history.context_size)
            if anchor is not None:
                history = history.knowing(anchor.tokens) if anchor.exact else \
                    history.anchored(anchor.tokens, anchor.chars)
            given = history
            done = step(history, settings, store, summarizer)
            history, carried = done.history, done.kept  # an edit of this request only leaves `carried` whole
            protocol.checked_size(done.checked_size)
            acted, events = protocol.with_pending(done.acted, done.events)
            tokens = history.context_tokens
            compacted = protocol.reactive(index, tokens, history, settings)
            if compacted is not None:
                history = carried = compacted.history  # the loop's own compaction is permanent
                acted, events = (*acted, "reactive"), (*events, *compacted.events)
                tokens = history.context_tokens
            # known tokens mean the history is what the agent sent (set while pristine, or by as-recorded)
            exact = history.known_tokens is not None
            measures = protocol.meter.call(index, history, tokens, events, settings.summary_input_cap, exact)
            protocol.record(index, sent=history, tokens=tokens, acted=acted, events=events,
                            changed=history is not given, made=summaries_made(events), measures=measures, exact=exact)
            if protocol.result.histories is not None:  # kept when context.keep_histories
                protocol.result.histories.append(history)
            history = carried
        if not protocol.joins(index):
            continue
        history = protocol.take(history, message, prepared.sizes[index], index)
        protocol.turn_taken(index)
    return protocol.finish()
