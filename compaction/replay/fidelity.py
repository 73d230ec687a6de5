"""How far to trust a what-if on a log that compacted itself: each of the log's own compaction points
beside where the replayed strategy compacted, the calls between them, what the first call after each
carried (the log's recorded context against the strategy's estimate), and how far the token estimate was
from what the log recorded before the first of them (where both histories are the whole conversation).

A strategy "compacted" at a call when a summary was written before it (ReplayResult's `summaries`
count went up): L4, a peer's summary, a reactive compaction or the compact tool. The log's compactions
and the strategy's are paired in order: the log's first beside the strategy's first, and so on.
"""

import statistics
from dataclasses import dataclass

from compaction.replay.records import ReplayResult


@dataclass(frozen=True)
class CompactionPair:
    log_call: int | None  # the first call after one of the log's own compactions (0-based); None: none left
    strategy_call: int | None  # the strategy's compaction of the same rank (its first beside the log's first)
    pre_tokens: int | None  # what the log says the context held when it compacted
    trigger: str | None = None  # "auto", "manual", or None when the log does not say
    log_after_tokens: int | None = None  # what the log recorded at the first call after its compaction
    strategy_after_tokens: int | None = None  # the strategy's tokens at the first call after its own

    @property
    def calls_apart(self) -> int | None:
        """How many calls later (positive) or earlier (negative) the strategy compacted."""
        if self.log_call is None or self.strategy_call is None:
            return None
        return self.strategy_call - self.log_call

    @property
    def after_error(self) -> float | None:
        """The strategy's first call after its compaction against the log's, as a share of the log's."""
        if not self.log_after_tokens or self.strategy_after_tokens is None:
            return None
        return self.strategy_after_tokens / self.log_after_tokens - 1

    def as_dict(self) -> dict:
        return {"log_call": self.log_call, "strategy_call": self.strategy_call, "pre_tokens": self.pre_tokens,
                "trigger": self.trigger, "calls_apart": self.calls_apart, "log_after_tokens": self.log_after_tokens,
                "strategy_after_tokens": self.strategy_after_tokens, "after_error": self.after_error}


@dataclass(frozen=True)
class Fidelity:
    pairs: tuple[CompactionPair, ...]  # one per compaction of the log's own, in order
    strategy_calls: tuple[int, ...]  # every call the strategy compacted before
    estimate_error: float | None  # median |tokens - recorded| / recorded before the log's first compaction
    exact_calls: int  # calls whose tokens are the recorded ones (the histories had not parted)
    compared_calls: int  # calls before the log's first compaction that recorded usage

    def as_dict(self) -> dict:
        return {"pairs": [p.as_dict() for p in self.pairs], "strategy_calls": list(self.strategy_calls),
                "estimate_error": self.estimate_error, "exact_calls": self.exact_calls,
                "compared_calls": self.compared_calls}


def strategy_compactions(result: ReplayResult) -> list[int]:
    """The calls before which the strategy wrote a summary."""
    found, before = [], 0
    for call in result.calls:
        if call.summaries > before:
            found.append(call.call)
        before = call.summaries
    return found


def _recorded(result: ReplayResult, call: int | None) -> int | None:
    """What the log recorded the call carried, when it says."""
    if call is None or call >= len(result.calls):
        return None
    measures = result.calls[call].measures
    return measures.recorded.get("context_tokens") if measures is not None and measures.recorded else None


def fidelity(result: ReplayResult) -> Fidelity | None:
    """The fidelity of `result` against its log; None when the log recorded no usage at all."""
    recorded = [(c.tokens, c.measures.recorded["context_tokens"]) for c in result.calls
                if c.measures is not None and c.measures.recorded and c.measures.recorded.get("context_tokens")]
    if not recorded:
        return None
    first_log = next((b["call"] for b in result.boundaries if b.get("call") is not None), None)
    before = [(c.tokens, c.measures.recorded["context_tokens"]) for c in result.calls
              if (first_log is None or c.call < first_log) and c.measures is not None and c.measures.recorded
              and c.measures.recorded.get("context_tokens")]
    error = statistics.median(abs(sent - log) / log for sent, log in before) if before else None
    ours = strategy_compactions(result)
    pairs = []
    for n, boundary in enumerate(result.boundaries):
        log_call, strategy_call = boundary.get("call"), ours[n] if n < len(ours) else None
        pairs.append(CompactionPair(log_call, strategy_call, boundary.get("pre_tokens"), boundary.get("trigger"),
                                    _recorded(result, log_call),
                                    result.calls[strategy_call].tokens if strategy_call is not None else None))
    return Fidelity(tuple(pairs), tuple(ours), error, sum(1 for c in result.calls if c.exact), len(before))
