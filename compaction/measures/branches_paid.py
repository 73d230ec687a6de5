"""What a log's calls cost: those of its final branch (the conversation every page replays) and those
paid on branches the person left (a rewind, an earlier start of the session), named apart.

An agent's reader lists the calls it left out of the conversation under `metadata[OFF_BRANCH_CALLS]`,
one dict each: `usage` (importers/usage.py), `line`, `after_call` (how many calls of the final branch
came before it: the branch left the conversation after that call) and `reason` ("rewound",
"restarted", "dropped_calls", "unmatched"). Live follows the file line by line and counts every call it sees, on whichever branch;
Replay, Sessions and Compare replay the final branch. Both figures come from `paid_and_final`, and each
sentence names the other, so "320 calls" on Live and "314 calls" on Replay say why they differ.
"""

from dataclasses import dataclass
from typing import Any

from compaction.measures.cost import DEFAULT_PRICES, Prices
from compaction.measures.prices import recorded_call_cost, recorded_cost
from compaction.model.conversation import Conversation

OFF_BRANCH_CALLS = "off_branch_calls"
# how each reason a reader gives reads in the sentence: "{calls} {words} after call {N}"
REASON_WORDS = {"rewound": "on a branch rewound", "restarted": "of an earlier start of the session (restarted)",
                "dropped_calls": "dropped on resume (a tool call never answered)",
                "unmatched": "paid with no response of their own in the log (interrupted, or run into the next)"}


@dataclass(frozen=True)
class LeftBranch:
    """The calls of one left branch (consecutive left-out calls that left after the same call)."""

    reason: str
    after_call: int  # calls of the final branch before it (one-based: it left after call N)
    calls: int
    cost_usd: float


@dataclass(frozen=True)
class PaidAndFinal:
    final_calls: int  # model calls of the final branch: what Replay numbers 1..N
    final_cost_usd: float | None  # their recorded cost; None when the log records no usage
    left: tuple[LeftBranch, ...] = ()
    unrecorded: int = 0  # calls of the final branch with no usage (a response interrupted before its count)

    @property
    def left_calls(self) -> int:
        return sum(branch.calls for branch in self.left)

    @property
    def left_cost_usd(self) -> float:
        return sum(branch.cost_usd for branch in self.left)

    @property
    def paid_calls(self) -> int:
        return self.final_calls + self.left_calls

    @property
    def paid_cost_usd(self) -> float | None:
        if self.final_cost_usd is None and not self.left:
            return None
        return (self.final_cost_usd or 0.0) + self.left_cost_usd

    def sentence(self) -> str:
        """'320 calls paid, $32.25; 6 on a branch rewound after call 120, $2.02; the final branch's 314,
        $30.23', or '314 calls, $30.23' when nothing was left out."""
        if not self.left:
            return f"{_calls(self.final_calls)}{_cost(self.final_cost_usd)}{self._unrecorded()}"
        parts = [f"{_calls(self.paid_calls)} paid{_cost(self.paid_cost_usd)}"]
        parts += [f"{branch.calls:,} {REASON_WORDS.get(branch.reason, 'on a branch ' + branch.reason)} after call "
                  f"{branch.after_call:,}{_cost(branch.cost_usd)}" for branch in self.left]
        parts.append(f"the final branch's {self.final_calls:,}{_cost(self.final_cost_usd)} (what the replay "
                     f"numbers and prices){self._unrecorded()}")
        return "; ".join(parts)

    def _unrecorded(self) -> str:
        """Live counts a call when its usage is written; the replay every response the conversation holds."""
        if not self.unrecorded or self.final_cost_usd is None:
            return ""
        return (f" ({self.unrecorded:,} of them recorded no usage, a response interrupted before its count was "
                f"written: Live, which counts the calls' usage, sees {self.paid_calls - self.unrecorded:,})")

    def as_dict(self) -> dict[str, Any]:
        return {"paid_calls": self.paid_calls, "paid_cost_usd": _rounded(self.paid_cost_usd),
                "final_branch_calls": self.final_calls, "final_branch_cost_usd": _rounded(self.final_cost_usd),
                "unrecorded_calls": self.unrecorded, "left_branch_calls": self.left_calls, "left_branch_cost_usd": _rounded(self.left_cost_usd),
                "left_branches": [{"reason": b.reason, "after_call": b.after_call, "calls": b.calls,
                                   "cost_usd": _rounded(b.cost_usd)} for b in self.left],
                "sentence": self.sentence()}


def paid_and_final(conversation: Conversation, prices: Prices = DEFAULT_PRICES) -> PaidAndFinal:
    """The one place the calls and cost of a log are counted, for every page and command."""
    final_calls = sum(1 for message in conversation.messages if message["role"] == "assistant")
    recorded = [usage for usage in conversation.usage if isinstance(usage, dict)]
    final_cost = recorded_cost(recorded, prices).total_usd if recorded else None
    left: list[LeftBranch] = []
    for call in conversation.metadata.get(OFF_BRANCH_CALLS) or ():
        cost = recorded_call_cost(call["usage"], prices)[0]
        last = left[-1] if left else None
        if last is not None and (last.reason, last.after_call) == (call["reason"], call["after_call"]):
            left[-1] = LeftBranch(last.reason, last.after_call, last.calls + 1, last.cost_usd + cost)
        else:
            left.append(LeftBranch(call["reason"], call["after_call"], 1, cost))
    return PaidAndFinal(final_calls, final_cost, tuple(left), final_calls - len(recorded) if recorded else 0)


def _calls(count: int) -> str:
    return f"{count:,} call{'s' if count != 1 else ''}"


def _cost(value: float | None) -> str:
    return "" if value is None else f", ${value:,.2f}" if value >= 1 else f", ${value:,.4f}"


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 6)
