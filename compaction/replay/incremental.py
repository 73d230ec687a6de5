"""The incremental agent loop: per call, only the work that the call's new messages cause.

The plain loop (plain.py) hands the strategy the whole history at every call and measures what comes
back from scratch. Here the history is a RunningHistory changed in place, the strategy is its
incremental form (the registry's `incremental`, e.g. layers/incremental/pipeline.py), and every measure
keeps its state from one call to the next: the running size, the first position a layer rewrote (the
cache model's shared prefix), the untouched and rewritten messages (blind references), the uncompacted
side's running total. What a call records is exactly what the plain loop records (tests/engine/
test_incremental_equivalence.py compares them call by call, histories included).

`IncrementalReplay` advances one call at a time and can be copied between calls (checkpoint, resume), so
a sweep runs the cells that have not yet differed as one (branches.py).
"""

import copy
import dataclasses

from compaction.layers.compact_tool import compact_answered_turn
from compaction.layers.reactive import reactive_compact
from compaction.measures.cache import shared_block_chars
from compaction.measures.loss import SentView
from compaction.measures.running_view import RunningView
from compaction.model.history import History, RunContext
from compaction.model.reads import SettingsReads
from compaction.model.running import RunningHistory
from compaction.model.settings import Settings
from compaction.replay import lookups
from compaction.replay.context import ReplayContext
from compaction.replay.records import CallRecord, ReplayResult
from compaction.replay.uncompacted import Uncompacted
from compaction.strategies import summaries_made


class IncrementalReplay:
    def __init__(self, context: ReplayContext, settings: Settings, form):
        prepared = context.prepared
        self.context, self.form, self.settings = context, form, settings
        self.reads = SettingsReads(form.settings(settings))  # what the step and the loop read at a call
        self.running = RunningHistory(prepared.prepared, RunContext())
        self.result = context.new_result(settings)
        self.meter = context.new_meter()
        self.uncompacted = Uncompacted(prepared, context.billing, context.window, context.from_log)
        self.agent_summaries = prepared.recorded.agent_summaries
        self.compact_turns = lookups.compact_turns(prepared)
        self.output_chars = lookups.output_chars_before(prepared)
        self.last_call = context.call_indices[-1] if context.call_indices else None
        self.next = 0  # the next message of the conversation to take in
        self.pristine = True  # no layer has changed the history yet: it is what the agent sent
        self.summaries = self.tokens_total = self.raw_total = self.first_new = 0
        self.outputs_produced = self.outputs_whole = 0  # characters of tool output before a call; sent whole
        self.checked: int | None = None  # the largest size compared with CONTEXT_LIMIT
        self.pending: list = []  # compact-tool events since the last call
        self.waiting_focus: list[str | None] | tuple = ()  # set while a compact call waits for its turn's results
        self.made_texts: dict = {}  # text of the messages layers made (running_view.py)
        self.last_sent: History | None = None  # the history of the last call, for artifact retention
        self._records = 0  # a checkpoint's: how many of the records it shares with its replay are its own

    @property
    def done(self) -> bool:
        return self.next >= len(self.context.prepared.messages)

    def run(self) -> ReplayResult:
        while not self.done:
            self.advance()
        return self.finish()

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
        self.uncompacted.append(index)
        if index in self.agent_summaries:  # the agent's own summary exists only because it compacted: a
            return                         # what-if never sees it (plain.py)
        running = self.running
        running.append(index)
        if self.waiting_focus and message.get("role") == "user":
            context = self.context
            before = running.snapshot()
            compacted = compact_answered_turn(before, self.waiting_focus[0], context.summarizer, context.store)
            if compacted.history is not before:
                running.reset(compacted.history)
            self.pending += compacted.events
        self.waiting_focus = self.compact_turns.get(index, ())

    def _call(self, index: int) -> None:
        context, running, reads, result = self.context, self.running, self.reads, self.result
        known = None  # the tokens of this very history, when it is what the agent sent
        whole = self.uncompacted.known(index)  # what the whole history held, where the log says it
        if whole is not None:  # the estimate measures from there on (History.anchor; plain.py's anchored)
            if self.pristine and index < self.uncompacted.before:
                known = whole
                running.anchor = (whole, running.context_size)
            else:
                running.anchor = (whole, self.uncompacted.context_chars())
        version = running.version
        done = self.form(running, reads, context.store, context.summarizer)
        checked = done.checked_size
        if checked is not None and (self.checked is None or checked > self.checked):
            self.checked = checked
        acted, events = done.acted, done.events
        if self.pending:
            acted, events = ("compact_tool", *acted), (*self.pending, *events)
            self.pending = []
        unchanged = running.version == version
        tokens = known if known is not None and unchanged else running.context_tokens
        window = context.window
        if tokens > window:
            before = running.snapshot(known if unchanged else None)
            compacted = reactive_compact(before, _reactive_settings(reads), context.summarizer, context.store,
                                         f"{tokens:,} tokens > model window {window:,}")
            if compacted.events:  # none when only the newest messages are left: sent over the window
                running.reset(compacted.history)
                unchanged = False
                acted, events = (*acted, "reactive"), (*events, *compacted.events)
                tokens = running.context_tokens
        self.pristine = self.pristine and not acted and unchanged
        made = summaries_made(events) if done.summarised or len(events) != len(done.events) else 0
        self.summaries += made
        cap = reads.value("summary_input_cap") if made else reads.settings.summary_input_cap
        meter = self.meter
        exact = known is not None and unchanged
        measures = meter.measure(index, self._shared_with_previous if result.calls else None, running.overhead,
                                 RunningView(running, self.made_texts), tokens, events, cap, made, exact)
        raw_chars, raw_tokens, raw_runs, raw_cost = self.uncompacted.call(index, measures.output_tokens,
                                                                          meter.previous_time)
        self.tokens_total += tokens
        self.raw_total += raw_tokens
        produced, whole = lookups.new_outputs(running, self.first_new, index, self.output_chars)
        self.outputs_produced += produced
        self.outputs_whole += whole
        self.first_new = index
        calls = result.calls
        calls.append(CallRecord.made(
            len(calls), index, len(running.messages), running.context_size, tokens, raw_chars, raw_tokens,
            acted, self.summaries, self.tokens_total, self.raw_total, tokens > window, events,
            measures, raw_cost, raw_runs, exact))
        if result.histories is not None:  # kept when context.keep_histories
            result.histories.append(running.snapshot(known if exact else None))
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
        result, meter = self.result, self.meter
        result.max_checked_size = self.checked
        result.tool_output_chars, result.tool_output_whole_chars = self.outputs_produced, self.outputs_whole
        if self.last_sent is not None:
            meter.last_view = SentView(self.last_sent)
        return self.context.finish(result, meter, meter.retention())

    def checkpoint(self) -> "IncrementalReplay":
        """A copy of the state at this point that is never advanced itself, only `resume`d: it shares the
        list of records so far with this replay (which goes on appending to it) and remembers its length."""
        twin = copy.copy(self)
        twin.running = self.running.fork()
        twin.meter = copy.copy(self.meter)
        twin.uncompacted = copy.copy(self.uncompacted)
        twin.pending = list(self.pending)
        twin._records = len(self.result.calls)
        return twin

    def resume(self, settings: Settings) -> "IncrementalReplay":
        """An independent replay going on from this checkpoint at `settings` (which agree with every call
        made so far); the checkpoint itself stays as it is, for other resumptions."""
        twin = copy.copy(self)
        twin.running = self.running.fork()
        twin.meter = copy.copy(self.meter)
        twin.uncompacted = copy.copy(self.uncompacted)
        twin.pending = list(self.pending)
        count = self._records
        histories = None if self.result.histories is None else self.result.histories[:count]
        twin.result = dataclasses.replace(self.result, settings=settings, calls=self.result.calls[:count],
                                          histories=histories)
        twin.settings = settings
        twin.reads = SettingsReads(self.form.settings(settings))
        return twin


def _reactive_settings(reads: SettingsReads) -> Settings:
    reads.value("reactive_keep_last")  # where the kept tail starts
    return reads.settings


def replay_incremental(context: ReplayContext, settings: Settings, form) -> ReplayResult:
    return IncrementalReplay(context, settings, form).run()
