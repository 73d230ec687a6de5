"""What Tune sweeps of Claude Code: its auto-compact threshold, as the buffer below the window less the
output reserve (13,000 tokens by default; CLAUDE_AUTOCOMPACT_PCT_OVERRIDE moves it, earlier only), and
the window it counts against (CLAUDE_CODE_AUTO_COMPACT_WINDOW, 100,000 to 1,000,000 tokens), from half
the model's window up to all of it. Every buffer is valid at every window of the grid (the preset's rule)."""

from compaction.agents.claude_code.export_form import WINDOW_RANGE
from compaction.agents.claude_code.rules import BUFFER_TOKENS, RESERVE_FROM_2_1_7, RESERVE_UNTIL_2_1_6
from compaction.strategies.knobs import ROOM_ABOVE_BASE, ROUND_TO, Knob, Regime, rounded, spaced

WINDOW_SHARES = (0.5, 0.625, 0.75, 0.875, 1.0)  # of the model's window


def _window(regime: Regime) -> int:
    low, high = WINDOW_RANGE
    return min(max(regime.window_tokens, low), high)


def _windows(regime: Regime) -> tuple[int, ...]:
    low, high = WINDOW_RANGE
    return tuple(sorted({_window(regime)} | {min(max(rounded(regime.window_tokens * share, 5_000), low), high)
                                             for share in WINDOW_SHARES[:-1]}))


def _buffers(regime: Regime) -> tuple[int, ...]:
    """From the default up to where the smallest window of the grid still compacts above what every call
    sends (and the preset's rule holds with the larger, older reserve)."""
    smallest = _windows(regime)[0]
    high = min(smallest - RESERVE_UNTIL_2_1_6 - ROUND_TO,
               smallest - RESERVE_FROM_2_1_7 - regime.base_tokens - ROOM_ABOVE_BASE)
    return spaced(BUFFER_TOKENS, (high // ROUND_TO) * ROUND_TO, 7)


KNOBS = (Knob("buffer_tokens", "the auto-compact buffer (tokens below the window less the output reserve; "
              "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE)", _buffers, lambda _regime: BUFFER_TOKENS),
         Knob("window_tokens", "the window auto-compact counts against (CLAUDE_CODE_AUTO_COMPACT_WINDOW)", _windows,
              _window))
