"""Whose compaction a Codex rollout's `compacted` line was: Codex's own, or the person's /compact.

The rollout names no trigger. Codex compacts by itself once its count reaches its auto-compact limit (90 %
of the window from the 0.5x releases on), mid-turn (after a response that asked for tools) or before the
person's next turn; the person's /compact runs between turns at whatever size the context has. So a
compaction between turns with the context under PERSON_SHARE of the window is taken as the person's. On the
public rollouts the compactions between turns came at 19-52 % of the window (each followed by the person's
next message seconds to minutes later, as after a /compact), those mid-turn at 61-90 %, and the preset
matched Codex's own between turns at 75 % and 98 %.
"""

PERSON_SHARE = 0.6
UNKNOWN = "unknown"


def inferred_trigger(between_turns: bool, context: int | None, window: int | None) -> str:
    """'manual' (the person's /compact), 'auto' (Codex's own), or 'unknown' where the rollout recorded no
    token count or no window."""
    if not between_turns:
        return "auto"
    if not context or not window:
        return UNKNOWN
    return "manual" if context < PERSON_SHARE * window else "auto"
