"""What Tune sweeps of Crush: the tokens left at which it summarises (a constant of Crush, 20,000 over a
200,000-token window, else a fifth of the window), from summarising at the log's peak to summarising early."""

from compaction.agents.crush.preset import remaining_limit
from compaction.strategies.knobs import Knob, Regime, thresholds


def _default(regime: Regime) -> int:
    return remaining_limit(regime.window_tokens)


def _left(regime: Regime) -> tuple[int, ...]:
    at = thresholds(regime, regime.window_tokens - _default(regime))
    return tuple(sorted({regime.window_tokens - tokens for tokens in at if tokens < regime.window_tokens}))


KNOBS = (Knob("remaining_tokens", "the tokens left at which Crush summarises (largeContextWindowBuffer, or "
              "smallContextWindowRatio of the window)", _left, _default),)
