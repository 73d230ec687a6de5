"""The incremental agent loop: per call, only the work that the call's new messages cause.

The reference loop (reference.py) hands the strategy the whole history at every call and measures what comes
back from scratch. Here the history is a RunningHistory changed in place, the strategy is its
incremental form (the registry's `incremental`, e.g. layers/incremental/pipeline.py), and every measure
keeps its state from one call to the next: the running size, the first position a layer rewrote (the
cache model's shared prefix), the untouched and rewritten messages (blind references), the uncompacted
side's running total. What a call records is exactly what the reference loop records (tests/engine/
test_incremental_equivalence.py compares them call by call, histories included).

`IncrementalReplay` advances one call at a time and can be copied between calls (checkpoint, resume), so
a sweep runs the cells that have not yet differed as one (compaction/sweep/branches.py).
"""

import copy

from compaction.measures.cache import shared_block_chars
from compaction.measures.loss import SentView
from compaction.measures.running_view import RunningView
from compaction.model.history import History, RunContext
from compaction.model.reads import SettingsReads
from compaction.model.running import RunningHistory
from compaction.model.settings import Settings
from compaction.replay.context import ReplayContext
from compaction.replay.protocol import CallProtocol
from compaction.replay.records import ReplayResult
from compaction.replay.reference import CallByCall
from compaction.strategies import summaries_made


class IncrementalReplay(CallByCall):
    def __init__(self, context: ReplayContext, settings: Settings, form):
        self.context, self.form, self.settings = context, form, settings
        self.reads = SettingsReads(form.settings(settings))  # what the step and the loop read at a call
        self.running = RunningHistory(context.prepared.prepared, RunContext())
        self.protocol = CallProtocol(context, settings)
        self.last_call = context.call_indices[-1] if context.call_indices else None
        self.next = 0  # the next message of the conversation to take in
        self.made_texts: dict = {}  # text of the messages layers made (running_view.py)
        self.last_sent: History | None = None  # the history of the last call, for artifact retention
        self._records = 0  # a checkpoint's: how many of the records it shares with its replay are its own

    @property
    def result(self) -> ReplayResult:
        return self.protocol.result

    def advance(self) -> bool:
        """Take in the messages up to the next call and make it (the rest of the conversation when no call
        is left: False). `reads` then holds what the call read of the settings."""
        self.reads.start_call()
        originals = self.context.prepared.messages
        index = self.next
        while index < len(originals):
            message = originals[index]
            if message.get("role") == "assistant":
                self._call(index)
                self._take(index, message)
                self.next = index + 1
                return True
            self._take(index, message)
            index += 1
        self.next = index
        return False

    def _take(self, index: int, message: dict) -> None:
        """Message `index` joins the history; the answers to a compact call then compact it."""
        protocol, running = self.protocol, self.running
        if not protocol.joins(index):
            return
        running.append(index)
        if protocol.compact_due(message):
            before = running.snapshot()
            compacted = protocol.compact_answered(before)
            if compacted.history is not before:
                running.reset(compacted.history)
        protocol.turn_taken(index)

    def _call(self, index: int) -> None:
        context, running, reads, protocol = self.context, self.running, self.reads, self.protocol
        known = None  # the tokens of this very history, when it is what the agent sent
        anchor = protocol.anchor(index, running.context_size)
        if anchor is not None:  # the estimate measures from there on (History.anchor; reference.py's anchored)
            running.anchor = (anchor.tokens, anchor.chars)
            known = anchor.tokens if anchor.exact else None
        version = running.version
        done = self.form(running, reads, context.store, context.summarizer)
        protocol.checked_size(done.checked_size)
        acted, events = protocol.with_pending(done.acted, done.events)
        unchanged = running.version == version
        tokens = known if known is not None and unchanged else running.context_tokens
        if tokens > context.window_at(index):
            compacted = protocol.reactive(index, tokens, running.snapshot(known if unchanged else None),
                                          _reactive_settings(reads))
            if compacted is not None:
                running.reset(compacted.history)
                unchanged = False
                acted, events = (*acted, "reactive"), (*events, *compacted.events)
                tokens = running.context_tokens
        made = summaries_made(events) if done.summarised or len(events) != len(done.events) else 0
        cap = reads.value("summary_input_cap") if made else reads.settings.summary_input_cap
        exact = known is not None and unchanged
        meter = protocol.meter
        measures = meter.measure(index, self._shared_with_previous if protocol.result.calls else None,
                                 running.overhead, RunningView(running, self.made_texts), tokens, events, cap, made,
                                 exact)
        protocol.record(index, sent=running, tokens=tokens, acted=acted, events=events, changed=not unchanged,
                        made=made, measures=measures, exact=exact)
        if protocol.result.histories is not None:  # kept when context.keep_histories
            protocol.result.histories.append(running.snapshot(known if exact else None))
        if index == self.last_call:
            self.last_sent = running.snapshot()
        running.mark_sent()

    def _shared_with_previous(self) -> tuple[int, bool]:
        """cache.shared_prefix_chars(previous call's history, this one's), from the running history."""
        running = self.running
        count, previous = running.shared_with_sent()
        chars = running.prefix_chars(count) + 2 * count
        whole = count == running.sent_length
        if not whole and count < len(running.messages):
            chars += shared_block_chars(previous, running.messages[count])
        return chars, not whole

    def finish(self) -> ReplayResult:
        if self.last_sent is not None:
            self.protocol.meter.last_view = SentView(self.last_sent)
        return self.protocol.finish()

    def checkpoint(self) -> "IncrementalReplay":
        """A copy of the state at this point that is never advanced itself, only `resume`d: it shares the
        list of records so far with this replay (which goes on appending to it) and remembers its length."""
        twin = copy.copy(self)
        twin.running = self.running.fork()
        twin.protocol = self.protocol.fork()
        twin._records = len(self.protocol.result.calls)
        return twin

    def resume(self, settings: Settings) -> "IncrementalReplay":
        """An independent replay going on from this checkpoint at `settings` (which agree with every call
        made so far); the checkpoint itself stays as it is, for other resumptions."""
        twin = copy.copy(self)
        twin.running = self.running.fork()
        twin.protocol = self.protocol.fork(self._records, settings)
        twin.settings = settings
        twin.reads = SettingsReads(self.form.settings(settings))
        return twin


def _reactive_settings(reads: SettingsReads) -> Settings:
    reads.value("reactive_keep_last")  # where the kept tail starts
    return reads.settings


def replay_incremental(context: ReplayContext, settings: Settings, form) -> ReplayResult:
    return IncrementalReplay(context, settings, form).run()
