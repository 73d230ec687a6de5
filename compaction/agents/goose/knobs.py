"""What Tune sweeps of Goose: GOOSE_AUTO_COMPACT_THRESHOLD, a share of the context limit, from compacting
early up to its default of 0.8."""

from compaction.agents.goose.preset import THRESHOLD
from compaction.strategies.knobs import Knob, Regime, shares, thresholds


def _shares(regime: Regime) -> tuple[float, ...]:
    return shares(thresholds(regime, int(regime.window_tokens * THRESHOLD)), regime.window_tokens, high=0.99)


KNOBS = (Knob("threshold", "the auto-compact threshold (GOOSE_AUTO_COMPACT_THRESHOLD, a share of the context limit)",
              _shares, lambda _regime: THRESHOLD),)
