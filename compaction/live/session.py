"""A followed session as it stands: the calls measured so far (calls.py), the agent's compactions, and
the little the forecast needs about the context since the last one. Events from a format's reader come
in one at a time (`feed`); each new call and each compaction is reported back as an update.

Kept, and nothing else: the per-call columns; one small record per compaction; the last RECENT growths
and outputs; counters of what was written since the last compaction (characters, the person's turns,
tool results); the token sizes of the person's newest messages (a rule may keep them); a few notes. The
memory grows by the call columns alone, whatever the messages hold.
"""

from collections import deque
from dataclasses import dataclass, field

from compaction.live.calls import Call, CallLog
from compaction.live.events import (
    CallGrew,
    CallSeen,
    CompactionSeen,
    Event,
    Fact,
    Note,
    SummarySeen,
    Written,
)
from compaction.measures.cost import DEFAULT_PRICES
from compaction.measures.prices import FALLBACK_NOTE, recorded_call_cost

RECENT = 10  # calls whose growth and output make "the session's recent pace"
CHARS_PER_TOKEN = 4  # the tutorial's estimate, for text written since the newest call
KEPT_NOTES = 50
PERSON_MESSAGES_KEPT = 200


@dataclass
class Compaction:
    """One of the agent's own compactions, as its log wrote it."""

    line: int
    calls_before: int  # calls made before it
    trigger: str | None
    pre_tokens: int | None
    post_tokens: int | None
    context_before: int | None  # the newest call's context when it happened
    summary_chars: int | None = None  # the summary it put in the history, once that line is read
    first_call_after: int | None = None  # the context the first call after it carried: what was kept


@dataclass(frozen=True)
class CallUpdate:
    call: Call
    growth: int | None  # tokens more than the call before (None for the first call)
    first_after_compaction: bool
    cost_so_far_usd: float


@dataclass(frozen=True)
class CompactionUpdate:
    compaction: Compaction


@dataclass
class Segment:
    """What was written since the agent's last compaction (or the start)."""

    calls: int = 0
    chars: int = 0
    person_turns: int = 0
    tool_results: int = 0


@dataclass
class LiveSession:
    agent: str  # the format of its log (live/formats.py)
    calls: CallLog = field(default_factory=CallLog)
    compactions: list[Compaction] = field(default_factory=list)
    facts: dict = field(default_factory=dict)  # version, window, session_id
    notes: deque = field(default_factory=lambda: deque(maxlen=KEPT_NOTES))
    segment: Segment = field(default_factory=Segment)
    growths: deque = field(default_factory=lambda: deque(maxlen=RECENT))
    outputs: deque = field(default_factory=lambda: deque(maxlen=RECENT))
    person_tokens: deque = field(default_factory=lambda: deque(maxlen=PERSON_MESSAGES_KEPT))
    pending_chars: int = 0  # written since the newest call
    cost_usd: float = 0.0
    base_tokens: int | None = None  # the first call's context: system prompt, tools and the first prompt
    lifetimes: dict = field(default_factory=lambda: {"5m": 0, "1h": 0})  # calls writing the cache for each
    price_notes: dict = field(default_factory=dict)
    lines_skipped: int = 0

    def feed(self, event: Event) -> CallUpdate | CompactionUpdate | Note | None:
        if isinstance(event, CallSeen):
            return self._call(event)
        if isinstance(event, CallGrew):
            if len(self.calls):
                old = self.calls[-1]
                cost = self._cost(event.usage)
                new = self.calls.update_last(event.usage, cost)
                self.cost_usd += cost - old.cost_usd
                if self.outputs:
                    self.outputs[-1] = new.output
        elif isinstance(event, CompactionSeen):
            return self._compaction(event)
        elif isinstance(event, SummarySeen):
            if self.compactions and self.compactions[-1].summary_chars is None:
                self.compactions[-1].summary_chars = event.chars
        elif isinstance(event, Written):
            self.pending_chars += event.chars
            self.segment.chars += event.chars
            if event.person:
                self.segment.person_turns += 1
                self.person_tokens.append(-(-event.chars // CHARS_PER_TOKEN))
            else:
                self.segment.tool_results += 1
        elif isinstance(event, Fact):
            self.facts[event.name] = event.value
        elif isinstance(event, Note):
            self.notes.append(event)
            return event
        return None

    def _call(self, event: CallSeen) -> CallUpdate:
        previous = self.calls[-1] if len(self.calls) else None
        after = bool(self.compactions) and self.segment.calls == 0
        call = self.calls.add(event.line, event.usage, self._cost(event.usage), event.time, len(self.compactions))
        self.cost_usd += call.cost_usd
        growth = call.context - previous.context if previous is not None else None
        if growth is not None and not after:
            self.growths.append(growth)  # the drop across a compaction is not the session's pace
        if after:
            self.compactions[-1].first_call_after = call.context
        if self.base_tokens is None:
            self.base_tokens = call.context
        self.outputs.append(call.output)
        if call.write_1h or call.write_5m:
            self.lifetimes["1h" if call.write_1h > call.write_5m else "5m"] += 1
        self.segment.calls += 1
        self.pending_chars = 0
        return CallUpdate(call, growth, after, self.cost_usd)

    def _compaction(self, event: CompactionSeen) -> CompactionUpdate:
        newest = self.calls[-1].context if len(self.calls) else None
        found = Compaction(event.line, len(self.calls), event.trigger, event.pre_tokens, event.post_tokens, newest,
                           event.summary_chars)
        self.compactions.append(found)
        self.segment = Segment()
        self.pending_chars = 0  # the person's messages stay: a rule may keep the newest through compactions
        return CompactionUpdate(found)

    def _cost(self, usage: dict) -> float:
        cost, priced_by = recorded_call_cost(usage, DEFAULT_PRICES)
        if priced_by.endswith(FALLBACK_NOTE):
            self.price_notes[priced_by] = None
        return cost

    # what the forecast reads

    @property
    def newest(self) -> Call | None:
        return self.calls[-1] if len(self.calls) else None

    @property
    def awaiting_first_call(self) -> bool:
        """Whether the agent has compacted since its newest call: the context is what it kept."""
        return bool(self.compactions) and self.segment.calls == 0

    def growth_per_call(self) -> float | None:
        return sum(self.growths) / len(self.growths) if self.growths else None

    def output_per_call(self) -> float:
        return sum(self.outputs) / len(self.outputs) if self.outputs else 0.0

    def pending_tokens(self) -> int:
        """Tokens written since the newest call: its own output, and the text since (characters / 4)."""
        newest = self.newest
        output = newest.output if newest is not None and not self.awaiting_first_call else 0
        return output + -(-self.pending_chars // CHARS_PER_TOKEN)

    def lifetime(self) -> str:
        """The cache lifetime the session writes at: the newest call's, else the one most calls used."""
        newest = self.newest
        if newest is not None and (newest.write_1h or newest.write_5m):
            return "1h" if newest.write_1h > newest.write_5m else "5m"
        return "1h" if self.lifetimes["1h"] > self.lifetimes["5m"] else "5m"
