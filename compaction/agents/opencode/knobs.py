"""What Tune sweeps of OpenCode: where it compacts, as the model's context limit opencode.json can set
(the usable window is that less the reply's room, min(output limit, 32,000)), from compacting early up to
the model's own limit; and the newest tool outputs its prune keeps whole (PRUNE_PROTECT, a constant of
OpenCode: not exported), from a quarter to four times its 40,000 tokens."""

from compaction.agents.opencode.preset import OUTPUT_TOKEN_MAX
from compaction.agents.opencode.prune import PROTECT
from compaction.strategies.knobs import Knob, Regime, around, thresholds

PROTECTED = (0.25, 0.5, 1, 2, 4)


def _limits(regime: Regime) -> tuple[int, ...]:
    """Context limits whose usable windows are the thresholds from compacting early to OpenCode's own."""
    usable = max(regime.window_tokens - OUTPUT_TOKEN_MAX, 1)
    return tuple(sorted({value + OUTPUT_TOKEN_MAX for value in thresholds(regime, usable)} | {regime.window_tokens}))


KNOBS = (Knob("context_limit_tokens", "the model's context limit (opencode.json's provider.<id>.models.<id>.limit."
              "context; OpenCode compacts 32,000 below it)", _limits, lambda regime: regime.window_tokens),
         Knob("prune_protect_tokens", "the newest tool outputs the prune keeps whole (PRUNE_PROTECT, a constant "
              "of OpenCode)", lambda _regime: around(PROTECT, PROTECTED, 1_000, 10_000_000), lambda _regime: PROTECT))
