"""An agent's knobs: the parameters of its own preset that Tune sweeps first, with values around the
agent's default, in the agent's own units (tokens, a share of the window, events), that cover where a
log's agent ran: from compacting early up to where it compacted itself, or its context peaked. Each
agent's package declares its knobs (compaction/agents/); one knob is swept as a line, two as a grid.

A knob's values come from the log's `Regime`: the window the replay runs in, the largest context the log
recorded, what every call sends anyway and where the agent first compacted.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from compaction.model.calibration import recorded_context
from compaction.model.history import History
from compaction.strategies.spec import StrategySpec

ROUND_TO = 1_000  # tokens: a threshold on round numbers
ROOM_ABOVE_BASE = 2_000  # the lowest threshold sits this far above what every call sends anyway


@dataclass(frozen=True)
class Regime:
    """Where a log's agent ran, in tokens."""

    window_tokens: int  # the model window the replay runs in
    peak_tokens: int  # the largest context the log recorded (the whole history's estimate without usage)
    base_tokens: int  # what every call sends: the system prompt and tools, as the token model counts them
    compacted_at: int | None  # the context when the agent first compacted itself (its preTokens), if it did
    messages: int  # messages of the session

    @classmethod
    def of(cls, history: History, window_tokens: int) -> "Regime":
        recorded = [tokens for usage in history.recorded.usage if isinstance(usage, dict)
                    and (tokens := recorded_context(usage))]
        return cls(window_tokens, max(recorded, default=history.context_tokens),
                   history.token_model.tokens(history.overhead), compaction_point(history), len(history.messages))


def compaction_point(history: History) -> int | None:
    """The tokens the log's context held when the agent first compacted itself (its preTokens)."""
    points = [b.get("pre_tokens") for b in history.recorded.boundaries if isinstance(b, dict)]
    found = [p for p in points if isinstance(p, int) and not isinstance(p, bool) and p > 0]
    return found[0] if found else None


@dataclass(frozen=True)
class Knob:
    param: str  # the parameter of the agent's own preset
    words: str  # what it is in the agent's terms: "the auto-compact limit (config.toml's ...)"
    values: Callable[[Regime], tuple[Any, ...]]  # the sweep's values at a log's regime, sorted, the default among them
    default: Callable[[Regime], Any]  # what the agent itself runs with at that regime, in the parameter's unit


def rounded(value: float, to: int = ROUND_TO) -> int:
    return int(to * round(value / to))


def thresholds(regime: Regime, default: int, count: int = 8) -> tuple[int, ...]:
    """Context thresholds in tokens: `count - 1` round steps from compacting early (a fifth of the range,
    above what every call sends) up to the agent's `default` or, when the log never reached it, the
    log's peak; then the default itself and the agent's own compaction point."""
    top = max(min(default, regime.peak_tokens), regime.base_tokens + 2 * ROOM_ABOVE_BASE)
    low = max(regime.base_tokens + ROOM_ABOVE_BASE, top // 5)
    steps = max(count - 2, 1)
    values = {rounded(low + (top - low) * step / steps) for step in range(steps + 1)} | {default}
    point = regime.compacted_at
    if point is not None and point <= regime.window_tokens:  # in place of the step nearest to it
        half_step = (top - low) / steps / 2
        values = {value for value in values if value == default or abs(value - point) >= half_step}
        values.add(rounded(point))
    return tuple(sorted(value for value in values if 0 < value <= max(default, regime.window_tokens)))


def shares(tokens: Sequence[int], window: int, digits: int = 3, low: float = 0.01, high: float = 1.0
           ) -> tuple[float, ...]:
    """Thresholds in tokens as shares of `window` (a threshold set as a share of the window), within bounds."""
    return tuple(sorted({min(max(round(value / window, digits), low), high) for value in tokens}))


def around(default: int, factors: Sequence[float], low: int, high: int) -> tuple[int, ...]:
    """Whole values at `factors` of the agent's `default`, within `low` to `high` (a count, a limit)."""
    return tuple(sorted({min(max(round(default * factor), low), high) for factor in factors}))


def spaced(low: int, high: int, count: int, to: int = ROUND_TO) -> tuple[int, ...]:
    """`count` round values from `low` to `high`, both included."""
    if count < 2 or high <= low:
        return (low,)
    return tuple(sorted({low, high} | {rounded(low + (high - low) * step / (count - 1), to)
                                       for step in range(1, count - 1)}))


def regime_params(spec: StrategySpec, regime: Regime) -> dict[str, Any]:
    """The parameters of an agent's preset that the log fixes, its knobs aside: the window it ran in."""
    names = {param.name for param in spec.params}
    return {"window_tokens": regime.window_tokens} if "window_tokens" in names else {}
