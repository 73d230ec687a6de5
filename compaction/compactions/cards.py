"""One card per compaction the log records, the agent's automatic ones and the person's own, in order:
when and why, the tokens before and after, what it replaced (the composition of the call before), what it
carried on (carried.py), what it cost (cost.py), what the agent had to read again (reread.py), and where
the agent's own preset, replayed, compacted beside it (preset.py).

The call is numbered as the pages number calls (replay.call_number): the first call sent after the
compaction. Tokens before are the log's own count when it wrote one (the count its compaction record gives,
else the last call's total); tokens after are the context the log recorded for the first call after.
"""

from bisect import bisect_left
from dataclasses import dataclass

from compaction.compactions.carried import CarriedOn, carried_on
from compaction.compactions.cost import CompactionCost, compaction_cost
from compaction.compactions.preset import PresetBeside
from compaction.compactions.reread import Reread, rereads
from compaction.measures.composition_tokens import sent_composition
from compaction.measures.cost import DEFAULT_PRICES, Prices
from compaction.model.calibration import recorded_context
from compaction.model.history import History
from compaction.replay.lookups import call_number


@dataclass(frozen=True)
class CompactionCard:
    number: int  # 1 for the log's first compaction
    index: int  # the message the compaction's summary (or new start) is in the loaded conversation
    call: int | None  # the first call after it, numbered as the pages number calls; None: no call follows
    time: str | None
    trigger: str | None  # as the log writes it: "auto", "manual", ...
    focus: str | None  # what the person typed after /compact, when they typed something
    tokens_before: int | None
    tokens_after: int | None
    post_tokens: int | None  # where the log writes it (the conversation after it, alone)
    duration_ms: int | float | None
    replaced: dict | None  # the composition of the call before (measures/composition_tokens.py), as a dict
    carried_on: CarriedOn
    cost: CompactionCost
    reread: tuple[Reread, ...]
    preset: PresetBeside | None = None

    @property
    def reread_tokens(self) -> int:
        return sum(item.tokens for item in self.reread)

    @property
    def reread_cost_usd(self) -> float:
        return sum(item.cost_usd for item in self.reread)

    def as_dict(self) -> dict:
        return {"number": self.number, "index": self.index, "call": self.call, "time": self.time,
                "trigger": self.trigger, "focus": self.focus, "tokens_before": self.tokens_before,
                "tokens_after": self.tokens_after, "post_tokens": self.post_tokens, "duration_ms": self.duration_ms,
                "replaced": self.replaced, "carried_on": self.carried_on.as_dict(),
                "summary_chars": self.carried_on.summary_chars, "cost_usd": self.cost.as_dict()["total_usd"],
                "cost": self.cost.as_dict(), "reread_files": [item.as_dict() for item in self.reread],
                "reread_tokens": self.reread_tokens, "reread_cost_usd": round(self.reread_cost_usd, 6),
                "preset": self.preset.as_dict() if self.preset is not None else None}


def _int(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def log_boundaries(history: History) -> list[dict]:
    """The log's own compactions with a message index, in order."""
    found = [b for b in history.recorded.boundaries if isinstance(b, dict) and _int(b.get("index")) is not None]
    return sorted(found, key=lambda boundary: boundary["index"])


def compaction_cards(history: History, format_name: str | None, prices: Prices = DEFAULT_PRICES,
                     presets: list[PresetBeside | None] | None = None) -> list[CompactionCard]:
    """Every compaction the log of `format_name` records, opened. `prices`: what a model the price table
    lacks is priced at; `presets`: the agent's own preset beside each (preset.presets_beside), when replayed."""
    originals, usage = history.originals, history.recorded.usage
    calls = [i for i, message in enumerate(originals) if message.get("role") == "assistant"]
    boundaries = log_boundaries(history)
    cards = []
    for number, boundary in enumerate(boundaries, 1):
        index = boundary["index"]
        first = bisect_left(calls, index)
        after = calls[first] if first < len(calls) else None
        before = calls[first - 1] if first > 0 else None
        start = boundaries[number - 2]["index"] if number > 1 else 0
        end = boundaries[number]["index"] if number < len(boundaries) else len(originals)
        carried = carried_on(history, boundary, format_name)
        before_usage = usage[before] if before is not None and before < len(usage) else None
        after_usage = usage[after] if after is not None and after < len(usage) else None
        tokens_before = _int(boundary.get("pre_tokens")) or recorded_context(before_usage)
        time = boundary.get("time") if isinstance(boundary.get("time"), str) else \
            (history.recorded.timestamps[index] if index < len(history.recorded.timestamps) else None)
        summary_tokens = history.token_model.content_tokens(carried.summary_chars)
        cards.append(CompactionCard(
            number, index, call_number(first) if after is not None else None, time,
            boundary.get("trigger") if isinstance(boundary.get("trigger"), str) else None,
            boundary.get("focus") if isinstance(boundary.get("focus"), str) else None,
            _int(boundary.get("pre_tokens")), recorded_context(after_usage), _int(boundary.get("post_tokens")),
            boundary.get("duration_ms") if isinstance(boundary.get("duration_ms"), int | float) else None,
            sent_composition(history, before)[0].as_dict() if before is not None else None, carried,
            compaction_cost(tokens_before, summary_tokens, before_usage, after_usage, prices),
            tuple(rereads(history, start, index, end, carried.text(), prices)),
            presets[number - 1] if presets is not None and number <= len(presets) else None))
    return cards
