"""How far to trust a what-if on a log that compacted itself: the log's own compaction points beside
where the replayed strategy compacted, the calls between them, and how far the token estimate was from
what the log recorded before the first of them (where both histories are the whole conversation).

A strategy "compacted" at a call when a summary was written before it (ReplayResult's `summaries`
count went up): L4, a peer's summary, a reactive compaction or the compact tool.
"""

import statistics
from dataclasses import dataclass

from compaction.replay.records import ReplayResult


@dataclass(frozen=True)
class CompactionPair:
    log_call: int | None  # the first call after one of the log's own compactions (0-based); None: none left
    strategy_call: int | None  # the strategy's compaction of the same rank (its first beside the log's first)
    pre_tokens: int | None  # what the log says the context held when it compacted

    @property
    def calls_apart(self) -> int | None:
        """How many calls later (positive) or earlier (negative) the strategy compacted."""
        if self.log_call is None or self.strategy_call is None:
            return None
        return self.strategy_call - self.log_call

    def as_dict(self) -> dict:
        return {"log_call": self.log_call, "strategy_call": self.strategy_call, "pre_tokens": self.pre_tokens,
                "calls_apart": self.calls_apart}


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
    # in order: the log's first compaction beside the strategy's first, and so on
    pairs = [CompactionPair(boundary.get("call"), ours[n] if n < len(ours) else None, boundary.get("pre_tokens"))
             for n, boundary in enumerate(result.boundaries)]
    return Fidelity(tuple(pairs), tuple(ours), error, sum(1 for c in result.calls if c.exact), len(before))
