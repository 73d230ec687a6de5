"""Where the agent's own preset, replayed over the log, compacted beside each of the log's compactions, and
what it carried: the pairs of replay/fidelity.py (the log's n-th compaction beside the preset's n-th), with
the words the preset's summary record gives of what its first call after carries. It shows how far to trust
the what-if at that very point."""

from dataclasses import dataclass

from compaction.model.events import SummaryEvent
from compaction.replay.fidelity import fidelity
from compaction.replay.lookups import call_number
from compaction.replay.records import ReplayResult
from compaction.strategies import REGISTRY


@dataclass(frozen=True)
class PresetBeside:
    preset: str  # the strategy's name
    call: int | None  # where it compacted (numbered as the pages number calls); None: it never did
    calls_apart: int | None  # how many calls after the log's compaction (negative: before)
    tokens_after: int | None  # its first call after, as the replay estimates it
    after_error: float | None  # that against what the log recorded, as a share of the log's
    carried: str  # what its summary record says the first call after carries

    def as_dict(self) -> dict:
        return {"preset": self.preset, "call": self.call, "calls_apart": self.calls_apart,
                "tokens_after": self.tokens_after,
                "after_error": None if self.after_error is None else round(self.after_error, 4), "carried": self.carried}


def own_preset(format_name: str | None) -> str | None:
    """The preset replaying the rule of the agent whose log a `format_name` file is: an agent's preset has its
    format's name (agents/base.py: one name everywhere). None for a format no agent owns a preset of."""
    return format_name if format_name in REGISTRY and not REGISTRY[format_name].follows_log else None


def _carried(result: ReplayResult, call: int | None) -> str:
    if call is None:
        return ""
    events = [e for e in result.calls[call].events if isinstance(e, SummaryEvent) and e.triggered]
    return events[-1].reason if events else ""


def presets_beside(result: ReplayResult) -> list[PresetBeside | None]:
    """One entry per compaction of the log (in order) from a replay of the agent's own preset; empty when the
    log recorded no usage to pair against."""
    found = fidelity(result)
    if found is None:
        return []
    return [PresetBeside(result.strategy, call_number(pair.strategy_call) if pair.strategy_call is not None else None,
                         pair.calls_apart, pair.strategy_after_tokens, pair.after_error,
                         _carried(result, pair.strategy_call)) for pair in found.pairs]
