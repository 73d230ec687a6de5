"""A followed session as it stands: the calls measured so far (calls.py), the agent's compactions, and
the little the forecast needs about the context since the last one. Events from a format's reader come
in one at a time (`feed`); each new call and each compaction is reported back as an update.

Kept, and nothing else: the per-call columns; one small record per compaction; the last GROWTH_WINDOW
growths and RECENT outputs; counters of what was written since the last compaction (characters, the
person's turns, tool results); the token sizes of the person's newest messages and of the agent's newest
answers, and the newest files read (a rule may keep them); what the system prompt and tools come to (the
part a first call after a compaction reads from the cache); a few notes. The memory grows by the call
columns alone, whatever the messages hold.
"""

from collections import OrderedDict, deque
from dataclasses import dataclass, field

from compaction.live.calls import Call, CallLog
from compaction.live.events import (
    Answered,
    CallGrew,
    CallSeen,
    CompactionSeen,
    Event,
    Fact,
    FileRead,
    Note,
    SummarySeen,
    Written,
)
from compaction.live.formats import live_format, names
from compaction.measures.cost import DEFAULT_PRICES
from compaction.measures.prices import FALLBACK_NOTE, recorded_call_cost

RECENT = 10  # calls whose output makes "the session's recent output"
GROWTH_WINDOW = 30  # calls whose growth makes the session's pace (pace.py)
FILES_KEPT = 20  # the newest files read, by path
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
    revised: bool = False  # the call seen before, its input counted again by a later line of its response


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
    growths: deque = field(default_factory=lambda: deque(maxlen=GROWTH_WINDOW))
    outputs: deque = field(default_factory=lambda: deque(maxlen=RECENT))
    person_tokens: deque = field(default_factory=lambda: deque(maxlen=PERSON_MESSAGES_KEPT))
    answer_tokens: deque = field(default_factory=lambda: deque(maxlen=PERSON_MESSAGES_KEPT))
    files: OrderedDict = field(default_factory=OrderedDict)  # path -> characters as last read, newest last
    text_tokens: int = 0  # what the calls grew by beyond the output before them, where text was written between
    text_chars: int = 0  # the characters written between those calls
    # the system prompt and tools, in tokens: what a first call after a compaction reads from the cache
    prefix_tokens: int | None = None
    opening_tokens: int = 0  # the text written before the first call (its prompt), at characters / 4
    pending_chars: int = 0  # written since the newest call
    cost_usd: float = 0.0
    base_tokens: int | None = None  # the first call's context: system prompt, tools and the first prompt
    lifetimes: dict = field(default_factory=lambda: {"5m": 0, "1h": 0})  # calls writing the cache for each
    price_notes: dict = field(default_factory=dict)
    lines_skipped: int = 0
    _growth_from: int | None = None  # the context the newest call's growth is counted from

    def feed(self, event: Event) -> CallUpdate | CompactionUpdate | Note | None:
        if isinstance(event, CallSeen):
            return self._call(event)
        if isinstance(event, CallGrew):
            return self._grew(event) if len(self.calls) else None
        if isinstance(event, CompactionSeen):
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
        elif isinstance(event, Answered):
            self.answer_tokens.append(-(-event.chars // CHARS_PER_TOKEN))
        elif isinstance(event, FileRead):
            self.files.pop(event.path, None)
            self.files[event.path] = event.chars
            while len(self.files) > FILES_KEPT:
                self.files.popitem(last=False)
        elif isinstance(event, Fact):
            self.facts[event.name] = event.value
        elif isinstance(event, Note):
            self.notes.append(event)
            return event
        return None

    def _call(self, event: CallSeen) -> CallUpdate:
        if not event.measured:  # numbered as the replay numbers it; nothing of it is measured
            return CallUpdate(self.calls.add_unmeasured(event.line, event.time, len(self.compactions)), None, False,
                              self.cost_usd)
        previous = self.calls[-1] if len(self.calls) else None
        after = bool(self.compactions) and self.segment.calls == 0
        call = self.calls.add(event.line, event.usage, self._cost(event.usage), event.time, len(self.compactions))
        self.cost_usd += call.cost_usd
        growth = call.context - previous.context if previous is not None else None
        self._growth_from = None
        if previous is not None and growth is not None and not after:
            self.growths.append(growth)  # the drop across a compaction is not the session's pace
            self._growth_from = previous.context
            if self.pending_chars and growth > previous.output:
                self.text_tokens += growth - previous.output
                self.text_chars += self.pending_chars
        if after:
            self.compactions[-1].first_call_after = call.context
            if call.read:  # what it read from the cache is the system prompt and tools, unchanged
                self.prefix_tokens = call.read
        if self.base_tokens is None:
            self.base_tokens = call.context
            # the system prompt and tools: the first call's cache read, or the call less what was written before
            # it (the first prompt); a first call after a compaction gives the real figure
            opening = self.opening_tokens = -(-self.pending_chars // CHARS_PER_TOKEN)
            read_is_prefix = self.agent in names() and live_format(self.agent).first_read_is_prefix
            self.prefix_tokens = call.read if call.read and read_is_prefix else max(call.context - opening, 0)
        self.outputs.append(call.output)
        if call.write_1h or call.write_5m:
            self.lifetimes["1h" if call.write_1h > call.write_5m else "5m"] += 1
        self.segment.calls += 1
        self.pending_chars = 0
        return CallUpdate(call, growth, after, self.cost_usd)

    def _grew(self, event: CallGrew) -> CallUpdate | None:
        """A later line of the newest response: its output, and where its input counts more than the first
        line's (a relay streams partial usage: 1,304 then 40,893), the call revised, said as an update."""
        old = self.calls[-1]
        cost = self._cost(event.usage)
        new = self.calls.update_last(event.usage, cost)
        self.cost_usd += cost - old.cost_usd
        if self.outputs:
            self.outputs[-1] = new.output
        if new.context == old.context:
            return None
        if self._growth_from is not None and self.growths:
            self.growths[-1] = new.context - self._growth_from
        after = bool(self.compactions) and self.segment.calls == 1
        if after and self.compactions[-1].first_call_after == old.context:
            self.compactions[-1].first_call_after = new.context
        growth = new.context - self._growth_from if self._growth_from is not None else None
        return CallUpdate(new, growth, after, self.cost_usd, revised=True)

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
        """The session's pace: the mean growth of its last GROWTH_WINDOW calls, a drop without a compaction
        (microcompact, a rewind) counted as no growth rather than a shrink; None before the second call."""
        return sum(max(g, 0) for g in self.growths) / len(self.growths) if self.growths else None

    def tokens_per_char(self) -> float:
        """How many tokens a character written into this session came to: the calls' growth beyond the
        output before them, over the characters written between them (1 / CHARS_PER_TOKEN until known)."""
        if self.text_chars < 10_000:
            return 1 / CHARS_PER_TOKEN
        return self.text_tokens / self.text_chars

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
