"""What Tune sweeps of each: Cline's trigger (its window's maxAllowedSize, in tokens, from compacting early
up to its default) and Roo Code's and Kilo Code's condense threshold (autoCondenseContextPercent)."""

from compaction.agents.cline.cline_preset import max_allowed
from compaction.agents.cline.roo_preset import DEFAULT_PERCENT
from compaction.strategies.knobs import Knob, thresholds

PERCENTS = (30, 40, 50, 60, 70, 80, 90, DEFAULT_PERCENT)

CLINE_KNOBS = (Knob("max_allowed_tokens", "the trigger (the window's maxAllowedSize: set through the model's "
                    "contextWindow)", lambda regime: thresholds(regime, max_allowed(regime.window_tokens)),
                    lambda regime: max_allowed(regime.window_tokens)),)
ROO_KNOBS = (Knob("condense_percent", "the condense threshold (autoCondenseContextPercent, % of the window)",
                  lambda _regime: PERCENTS, lambda _regime: DEFAULT_PERCENT),)
