"""The composition of a call in tokens: each kind's characters (composition.py) through the
conversation's token model, adding up to the call's tokens as the replay counts them (what the log
recorded where the history is still what the agent sent, else the anchored estimate).

Every kind is the token model's estimate of its characters (the calibrated overhead, the system prompt
and tools every call sends that the log does not hold, goes to the system prompt and tools). When the
call carried more than that estimate, the rest is a kind of its own, NOT_IN_LOG: what the log does not
hold (the files an agent re-reads after its compaction may not be logged) or what the estimate misses.
When it carried less, every kind is scaled down by one factor. Whole numbers that sum exactly (largest
remainder); tool results split by tool the same way. Along a replay the figures come per call from the
kept histories, the messages measured once (`compositions_along`).
"""

from collections import Counter
from dataclasses import dataclass

from compaction.measures.composition import KINDS, NOT_IN_LOG, SYSTEM, TOOL_RESULTS, composer_of
from compaction.model.calibration import recorded_context
from compaction.model.history import History, anchored_tokens
from compaction.model.tokens import TokenModel

OTHER_TOOLS = "other tools"


def shares(total: int, weights: dict) -> dict:
    """`total` split over `weights` in proportion, whole numbers summing to `total` (largest remainder);
    all of it to the first key when every weight is zero."""
    if not weights:
        return {}
    weight_sum = sum(weights.values())
    if weight_sum <= 0:
        first = next(iter(weights))
        return {key: (total if key == first else 0) for key in weights}
    exact = {key: total * weight / weight_sum for key, weight in weights.items()}
    found = {key: int(value // 1) for key, value in exact.items()}
    left = total - sum(found.values())
    for key in sorted(exact, key=lambda k: exact[k] - found[k], reverse=True)[:max(left, 0)]:
        found[key] += 1
    return found


@dataclass(frozen=True)
class Composition:
    kinds: dict[str, int]  # tokens by kind (KINDS order), summing to `tokens`
    tool_results_by_tool: dict[str, int]  # tokens by tool, largest first, summing to kinds["tool_results"]
    chars: dict[str, int]  # characters by kind (the system prompt and tools: those the conversation holds)
    tool_result_chars: dict[str, int]
    tokens: int  # the call's tokens as the replay counts them
    estimated_tokens: int  # the token model's estimate of the characters alone
    recorded_tokens: int | None = None  # what the log recorded for this call, when it did

    @property
    def scale(self) -> float | None:
        """The call's tokens over the estimate of what the log holds (over 1: the rest is NOT_IN_LOG)."""
        return self.tokens / self.estimated_tokens if self.estimated_tokens else None

    def top_tools(self, count: int) -> dict[str, int]:
        """The `count` largest tools' tokens, the rest together as OTHER_TOOLS."""
        tools = list(self.tool_results_by_tool.items())
        if len(tools) <= count + 1:
            return dict(tools)
        return dict(tools[:count]) | {OTHER_TOOLS: sum(tokens for _, tokens in tools[count:])}

    def as_dict(self) -> dict:
        return {"kinds": dict(self.kinds), "tool_results_by_tool": dict(self.tool_results_by_tool),
                "total_tokens": self.tokens, "estimated_tokens": self.estimated_tokens,
                "recorded_context_tokens": self.recorded_tokens,
                "scale": None if self.scale is None else round(self.scale, 4),
                "chars": dict(self.chars), "tool_result_chars": dict(self.tool_result_chars)}


def from_chars(chars: Counter, model: TokenModel, tokens: int | None = None,
               recorded: int | None = None) -> Composition:
    """The composition of a call whose characters by (kind, tool) are `chars`, in `tokens` (None: the
    token model's estimate, unscaled)."""
    by_kind = {kind: 0 for kind in KINDS}
    by_tool: Counter = Counter()
    for (kind, tool), value in chars.items():
        by_kind[kind] += value
        if kind == TOOL_RESULTS:
            by_tool[tool or "?"] += value
    per_char = model.tokens_per_char
    weights = {kind: value * per_char for kind, value in by_kind.items()}
    weights[SYSTEM] += model.overhead_tokens
    del weights[NOT_IN_LOG]
    estimated = model.tokens(sum(by_kind.values()))
    total = estimated if tokens is None else tokens
    beyond = max(total - estimated, 0)
    kinds = shares(total - beyond, weights) | {NOT_IN_LOG: beyond}
    tools = dict(by_tool.most_common())
    return Composition(kinds, shares(kinds[TOOL_RESULTS], tools), by_kind, tools, total, estimated, recorded)


def history_composition(history: History, tokens: int | None = None, recorded: int | None = None,
                made: dict | None = None) -> Composition:
    """What fills a call that sends `history`, in `tokens` (None: the history's own `context_tokens`)."""
    chars = composer_of(history).chars(history, made)
    return from_chars(chars, history.token_model, history.context_tokens if tokens is None else tokens, recorded)


def uncompacted_composition(history: History, index: int, tokens: int | None = None,
                            recorded: int | None = None) -> Composition:
    """What fills the call answered by message `index` of `history`'s conversation had nothing ever been
    compacted (the replay's `raw_tokens` for `tokens`)."""
    return from_chars(composer_of(history).uncompacted_chars(index), history.token_model, tokens, recorded)


def sent_composition(history: History, index: int) -> tuple[Composition, int]:
    """(composition, messages sent) of what the log sent at the call answered by message `index` of
    `history`'s conversation, no strategy applied (Composer.sent_chars): in the tokens the log recorded for
    that call, else the estimate measured from the nearest earlier call it recorded, as a replay measures it."""
    composer = composer_of(history)
    chars, count = composer.sent_chars(index)
    usage = history.recorded.usage
    recorded = recorded_context(usage[index]) if index < len(usage) else None
    tokens = recorded
    if tokens is None:
        earlier = next((i for i in range(min(index, len(usage)) - 1, -1, -1) if recorded_context(usage[i])), None)
        anchor = None if earlier is None else (recorded_context(usage[earlier]) or 0,
                                                sum(composer.sent_chars(earlier)[0].values()))
        tokens = anchored_tokens(history.token_model, anchor, sum(chars.values()))
    return from_chars(chars, history.token_model, tokens, recorded), count


def _recorded(record) -> int | None:
    measures = record.measures
    return measures.recorded["context_tokens"] if measures is not None and measures.recorded else None


def call_composition(result, call: int, made: dict | None = None) -> Composition:
    """The composition of call `call` of a replay that kept its histories (`result`: a ReplayResult), in
    the tokens the replay counted for it, beside what the log recorded."""
    record = result.calls[call]
    return history_composition(result.history(call), record.tokens, _recorded(record), made)


def uncompacted_call_composition(result, call: int) -> Composition:
    """The same call of the replay had nothing been compacted, in the replay's `raw_tokens` for it."""
    record = result.calls[call]
    return uncompacted_composition(result.history(call), record.index, record.raw_tokens, _recorded(record))


def compositions_along(result) -> list[Composition]:
    """Every call's composition, in order: each history measured from where it differs from the one
    before (Composer.chars_along)."""
    if not result.calls:
        return []
    histories = [result.history(call) for call in range(len(result.calls))]
    model = histories[0].token_model
    return [from_chars(chars, model, record.tokens, _recorded(record))
            for chars, record in zip(composer_of(histories[0]).chars_along(histories), result.calls, strict=True)]


def uncompacted_along(result) -> list[Composition | None]:
    """Every call's composition without compaction; None past the call the model window refuses."""
    return [uncompacted_call_composition(result, call) if record.raw_runs else None
            for call, record in enumerate(result.calls)]
