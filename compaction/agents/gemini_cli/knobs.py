"""What Tune sweeps of Gemini CLI: its compression threshold (settings.json's model.compressionThreshold, a
share of the model's token limit), from compressing early up to its default of half the limit; and the
share of the history it keeps (COMPRESSION_PRESERVE_THRESHOLD, a constant of gemini-cli: not exported)."""

from compaction.strategies.knobs import Knob, Regime, shares, thresholds

THRESHOLD, PRESERVE = 0.5, 0.3  # gemini-cli's defaults
PRESERVED = (0.1, 0.2, PRESERVE, 0.5, 0.7)


def _thresholds(regime: Regime) -> tuple[float, ...]:
    return shares(thresholds(regime, int(regime.window_tokens * THRESHOLD)), regime.window_tokens)


KNOBS = (Knob("threshold_fraction", "the compression threshold (settings.json's model.compressionThreshold, a "
              "share of the token limit)", _thresholds, lambda _regime: THRESHOLD),
         Knob("preserve_fraction", "the newest share of the history kept (a constant of gemini-cli)",
              lambda _regime: PRESERVED, lambda _regime: PRESERVE))
