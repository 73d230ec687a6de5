"""What Tune sweeps of Pi: its two settings.json keys, as a grid. compaction.reserveTokens, from compacting
early (a large reserve) to its default of 16,384, or to the log's peak when the log never got near; and
compaction.keepRecentTokens, around its default of 20,000."""

from compaction.agents.pi.preset import KEEP_RECENT_TOKENS, RESERVE_TOKENS
from compaction.strategies.knobs import Knob, Regime, around, thresholds

KEPT_FACTORS = (0.25, 0.5, 1, 2, 4)


def _reserves(regime: Regime) -> tuple[int, ...]:
    window = regime.window_tokens
    found = {window - threshold for threshold in thresholds(regime, window - RESERVE_TOKENS)} | {RESERVE_TOKENS}
    return tuple(sorted(reserve for reserve in found if 0 <= reserve < window))


KNOBS = (Knob("reserve_tokens", "the reserve below the window (settings.json compaction.reserveTokens)", _reserves,
              lambda _regime: RESERVE_TOKENS),
         Knob("keep_recent_tokens", "the recent tokens kept whole (settings.json compaction.keepRecentTokens)",
              lambda regime: around(KEEP_RECENT_TOKENS, KEPT_FACTORS, 1_000, regime.window_tokens),
              lambda _regime: KEEP_RECENT_TOKENS))
