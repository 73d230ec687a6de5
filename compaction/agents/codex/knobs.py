"""What Tune sweeps of Codex CLI: its auto-compact limit (config.toml's model_auto_compact_token_limit),
from compacting early up to its default, 90 % of the window (or the log's peak, when it never got there)."""

from compaction.strategies.knobs import Knob, Regime, thresholds


def _default(regime: Regime) -> int:
    return regime.window_tokens * 9 // 10  # what Codex's model info computes when the key is not set


KNOBS = (Knob("auto_compact_token_limit", "the auto-compact limit (config.toml's model_auto_compact_token_limit)",
              lambda regime: thresholds(regime, _default(regime)), _default),)
