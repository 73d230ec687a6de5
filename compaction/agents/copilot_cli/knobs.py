"""What Tune sweeps of Copilot CLI: the share of the token limit at which it compacts (95 % in its
documentation, not a setting: the sweep shows what another share would have done), from compacting
early up to it, or to the log's peak when the log never got there."""

from compaction.agents.copilot_cli.preset import THRESHOLD
from compaction.strategies.knobs import Knob, Regime, shares, thresholds


def _shares(regime: Regime) -> tuple[float, ...]:
    return shares(thresholds(regime, int(regime.window_tokens * THRESHOLD)), regime.window_tokens)


KNOBS = (Knob("threshold_fraction", "the compaction threshold (a share of the token limit, 95 % in Copilot's "
              "documentation)", _shares, lambda _regime: THRESHOLD),)
