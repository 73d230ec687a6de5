"""A replay's per-call bookkeeping, one place for both loops (reference.py, incremental.py) and anything else
that advances a history call by call: each loop only says how its history advances. Its walk of the turns
(`TurnProtocol`: the messages joining the history, the compact tool, reactive compaction) needs no log, and
the compacting client (compaction/client) drives it on its conversation as it grows: one walk for both.

What is kept here:
- the recorded anchor: where the log says what the whole history held at a call, whether the history is
  still exactly what the agent sent (its tokens are the recorded ones) or is measured from there on;
- the compact tool: a `compact` call compacts once every result of its turn is in, and its events go to
  the next call's record;
- reactive compaction: a context over the model window is compacted before it is sent;
- the running totals (summaries, tokens sent, the uncompacted side, tool output reaching the model) and
  the call's record, built by keyword;
- the messages that join the history, the agent's own summaries left out (a what-if never sees them).
"""

import copy
from dataclasses import dataclass

from compaction.layers.compact_tool import compact_answered_turn, compact_calls, compact_focus
from compaction.layers.reactive import reactive_compact
from compaction.measures.meter import CallMeasures
from compaction.model.history import History
from compaction.model.settings import Settings
from compaction.replay import lookups
from compaction.replay.context import ReplayContext
from compaction.replay.records import CallRecord, ReplayResult
from compaction.replay.uncompacted import Uncompacted
from compaction.storage.outputs import OutputStore
from compaction.summarizers import Summarizer


@dataclass(frozen=True)
class Anchor:
    """What the log says of the whole history at a call."""

    tokens: int  # the tokens the whole history held
    exact: bool  # the history is still what the agent sent: its tokens are these
    chars: int  # the characters those tokens measured (the uncompacted history's, when not exact)


class TurnProtocol:
    """The walk of the turns: each message joins the history; a `compact` call compacts once its turn's
    results are in, keeping verbatim what the settings keep, and its events go to the next call's record;
    a context the model cannot take is compacted by the loop itself (reactive compaction)."""

    def __init__(self, settings: Settings, summarizer: Summarizer, store: OutputStore):
        self.settings = settings  # what the compact tool's summary keeps verbatim
        self.summarizer, self.store = summarizer, store
        self.pending: list = []  # compact-tool events since the last call
        self.waiting_focus: list[str | None] | tuple = ()  # set while a compact call waits for its turn's results

    def with_pending(self, acted: tuple, events: tuple) -> tuple[tuple, tuple]:
        """The step's actions and events with the compact tool's since the last call first."""
        if not self.pending:
            return tuple(acted), tuple(events)
        acted, events = ("compact_tool", *acted), (*self.pending, *events)
        self.pending = []
        return acted, events

    def compact_reactively(self, history: History, reason: str, settings: Settings | None = None):
        """The loop's own compaction of `history` (a Step; its history is `history` itself when nothing
        could be summarised). `settings`: the loop's, when not the protocol's."""
        return reactive_compact(history, settings or self.settings, self.summarizer, self.store, reason)

    def take(self, history: History, message: dict, size: int, origin: int) -> History:
        """`message` (original `origin`, of `size` characters) joins `history`, which the compact tool then
        compacts when the message brings the results a compact call waits for."""
        history = history.derive(history.messages + [message], history.sizes + [size], history.origins + [origin])
        if self.compact_due(message):
            history = self.compact_answered(history).history
        return history

    def compact_due(self, message: dict) -> bool:
        """Whether `message`, which just joined the history, brings the results a compact call waits for."""
        return bool(self.waiting_focus) and message.get("role") == "user"

    def compact_answered(self, history: History):
        """The compact tool's compaction of `history` now that its turn's results are in (a Step, whose
        history may be `history` itself); its events go to the next call's record."""
        compacted = compact_answered_turn(history, self.waiting_focus[0], self.summarizer, self.store, self.settings)
        self.pending += compacted.events
        return compacted

    def turn_taken_by(self, message: dict) -> None:
        """`message` is in: a compact call in it waits for its turn's results."""
        calls = compact_calls(message) if message.get("role") == "assistant" else []
        self.waiting_focus = [compact_focus(calls)] if calls else ()


class CallProtocol(TurnProtocol):
    def __init__(self, context: ReplayContext, settings: Settings):
        super().__init__(settings, context.summarizer, context.store)
        prepared = context.prepared
        self.context = context
        self.result: ReplayResult = context.new_result(settings)
        self.meter = context.new_meter()
        self.uncompacted = Uncompacted(prepared, context.billing, context.window_at, context.from_log)
        self.agent_summaries = prepared.recorded.agent_summaries
        self.compact_turns = lookups.compact_turns(prepared)
        self.output_chars = lookups.output_chars_before(prepared)
        self.pristine = True  # no layer has changed the history yet: it is what the agent sent
        self.summaries = self.tokens_total = self.raw_total = self.first_new = 0
        self.outputs_produced = self.outputs_whole = 0  # characters of tool output before a call; sent whole
        self.checked: int | None = None  # the largest size compared with CONTEXT_LIMIT

    # -- before the call --------------------------------------------------------------------------------

    def anchor(self, index: int, chars_now: int) -> Anchor | None:
        """What the log says of the whole history at the call at `index`, or None. `chars_now`: the
        characters of the history the loop holds (what an exact anchor measures)."""
        whole = self.uncompacted.known(index)
        if whole is None:
            return None
        if self.pristine and index < self.uncompacted.before:
            return Anchor(whole, True, chars_now)
        return Anchor(whole, False, self.uncompacted.context_chars())

    def checked_size(self, size: int | None) -> None:
        if size is not None and (self.checked is None or size > self.checked):
            self.checked = size

    def reactive(self, index: int, tokens: int, history: History, settings: Settings):
        """The loop's own compaction of a context over the model window (a Step), or None: under the
        window, or nothing left to compact (only the newest messages: it is sent over the window), or a
        strategy that follows the log sends what the log records the agent sent (the model took that call)."""
        window = self.context.window_at(index)
        if tokens <= window or (self.context.follows_log and history.known_tokens is not None):
            return None
        compacted = self.compact_reactively(history, f"{tokens:,} tokens > model window {window:,}", settings)
        return compacted if compacted.events else None

    # -- the call's record ------------------------------------------------------------------------------

    def record(self, index: int, *, sent, tokens: int, acted: tuple, events: tuple, changed: bool, made: int,
               measures: CallMeasures, exact: bool) -> CallRecord:
        """The call at `index` is made with the history `sent` (a History or a running history): its
        record, the running totals carried on. `changed`: a layer changed the history before this call;
        `made`: the summaries it wrote."""
        self.pristine = self.pristine and not acted and not changed
        self.summaries += made
        raw_chars, raw_tokens, raw_runs, raw_cost = self.uncompacted.call(index, measures.output_tokens,
                                                                          self.meter.previous_time)
        self.tokens_total += tokens
        self.raw_total += raw_tokens
        produced, whole = lookups.new_outputs(sent, self.first_new, index, self.output_chars)
        self.outputs_produced += produced
        self.outputs_whole += whole
        self.first_new = index
        calls = self.result.calls
        window = self.context.window_at(index)
        record = CallRecord(call=len(calls), index=index, messages=len(sent.messages), chars=sent.context_size,
                            tokens=tokens, raw_chars=raw_chars, raw_tokens=raw_tokens, acted=acted,
                            summaries=self.summaries, tokens_total=self.tokens_total, raw_tokens_total=self.raw_total,
                            over_window=tokens > window, events=events, measures=measures, raw_cost_usd=raw_cost,
                            raw_runs=raw_runs, exact=exact)
        calls.append(record)
        return record

    # -- after the call: the messages that join the history ---------------------------------------------

    def joins(self, index: int) -> bool:
        """Message `index` is taken in; whether it joins the history (the agent's own summary does not:
        it exists only because the agent compacted; the as-recorded strategy puts it back)."""
        self.uncompacted.append(index)
        return index not in self.agent_summaries

    def turn_taken(self, index: int) -> None:
        """Message `index` is in: a compact call in it waits for its turn's results (turn_taken_by's, looked
        up once per conversation)."""
        self.waiting_focus = self.compact_turns.get(index, ())

    # -- the end ----------------------------------------------------------------------------------------

    def finish(self) -> ReplayResult:
        result = self.result
        result.max_checked_size = self.checked
        result.tool_output_chars, result.tool_output_whole_chars = self.outputs_produced, self.outputs_whole
        return self.context.finish(result, self.meter, self.meter.retention())

    def fork(self, records: int | None = None, settings: Settings | None = None) -> "CallProtocol":
        """An independent copy of the state at this point. `records` and `settings`: go on from the first
        `records` calls of this replay at other settings (a sweep's branch), else share the records."""
        twin = copy.copy(self)
        twin.meter = copy.copy(self.meter)
        twin.uncompacted = copy.copy(self.uncompacted)
        twin.pending = list(self.pending)
        if records is not None:
            result = self.result
            histories = None if result.histories is None else result.histories[:records]
            twin.result = copy.copy(result)
            twin.result.calls, twin.result.histories = result.calls[:records], histories
            if settings is not None:
                twin.result.settings = twin.settings = settings
        return twin
