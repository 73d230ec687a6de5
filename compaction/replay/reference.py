"""The reference loop, the agent's loop as written: before every call, the strategy's step on the whole history carried so far.

Each assistant message of the original is a model call. Before it, the step runs on the history so far
and its output becomes the history, as the tutorial's `messages[:] = ...` does: a summary is permanent.
A strategy that edits only the request (the API's context editing) says so with `Step.carry`: that
history, not the one sent, is kept for the next call. The call's bookkeeping (the recorded anchor, the
compact tool, reactive compaction, the totals, the record) is the protocol's (protocol.py).

This loop runs every strategy without an incremental form (and any strategy with `plain=True`). It is the
reference: the incremental loop (incremental.py) and the sweep's kernel (compaction/sweep/kernel) are
tested against it, call by call.

`ReferenceReplay` advances one call at a time and can be copied between calls (`fork`), so a sweep runs the
cells of a preset that have not yet differed as one (compaction/sweep/kernel/thresholds.py).
"""

import copy

from compaction.model.history import History
from compaction.model.settings import Settings
from compaction.replay.context import ReplayContext
from compaction.replay.protocol import CallProtocol
from compaction.replay.records import CallRecord, ReplayResult
from compaction.strategies import Step, StepFunction, summaries_made


class CallByCall:
    """A replay made one call at a time (`advance`: the messages up to the next call, then the call), so
    that a sweep can copy it between calls; `run` makes every call and finishes it."""

    context: ReplayContext
    next: int  # the next message of the conversation to take in

    @property
    def done(self) -> bool:
        return self.next >= len(self.context.prepared.messages)

    def run(self) -> ReplayResult:
        while not self.done:
            self.advance()
        return self.finish()

    def advance(self) -> bool:
        raise NotImplementedError

    def finish(self) -> ReplayResult:
        raise NotImplementedError


class ReferenceReplay(CallByCall):
    def __init__(self, context: ReplayContext, settings: Settings, step: StepFunction):
        self.context, self.settings, self.step = context, settings, step
        self.protocol = CallProtocol(context, settings)
        self.history = context.prepared.start()  # this replay's own run: nothing remembered from another
        self.next = 0  # the next message of the conversation to take in
        # the last call made: the history the step was given, what it did, the record
        self.given: History | None = None
        self.done_step: Step | None = None
        self.record: CallRecord | None = None

    def finish(self) -> ReplayResult:
        return self.protocol.finish()

    def advance(self) -> bool:
        """Take in the messages up to the next call and make it (the rest of the conversation when no call
        is left: False)."""
        messages = self.context.prepared.messages
        index = self.next
        while index < len(messages):
            message = messages[index]
            called = message.get("role") == "assistant"
            if called:
                self._call(index)
            self._take(index, message)
            index += 1
            if called:
                self.next = index
                return True
        self.next = index
        return False

    def _call(self, index: int) -> None:
        protocol, settings, context = self.protocol, self.settings, self.context
        history = self.history
        anchor = protocol.anchor(index, history.context_size)
        if anchor is not None:
            history = history.knowing(anchor.tokens) if anchor.exact else history.anchored(anchor.tokens, anchor.chars)
        self.given = given = history
        self.done_step = done = self.step(history, settings, context.store, context.summarizer)
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
        self.record = protocol.record(index, sent=history, tokens=tokens, acted=acted, events=events,
                                      changed=history is not given, made=summaries_made(events), measures=measures,
                                      exact=exact)
        if protocol.result.histories is not None:  # kept when context.keep_histories
            protocol.result.histories.append(history)
        self.history = carried

    def _take(self, index: int, message: dict) -> None:
        protocol = self.protocol
        if protocol.joins(index):
            self.history = protocol.take(self.history, message, self.context.prepared.sizes[index], index)
            protocol.turn_taken(index)

    def fork(self, settings: Settings | None = None, step: StepFunction | None = None) -> "ReferenceReplay":
        """An independent replay going on from this point, at other settings or another step (which agree
        with every call made so far)."""
        twin = copy.copy(self)
        twin.protocol = self.protocol.fork(len(self.protocol.result.calls), settings)
        if settings is not None:
            twin.settings = settings
        if step is not None:
            twin.step = step
        return twin


def replay_reference(context: ReplayContext, settings: Settings, step: StepFunction) -> ReplayResult:
    return ReferenceReplay(context, settings, step).run()
