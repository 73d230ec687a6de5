"""The pipeline in the agent's own regime: the CONTEXT_LIMIT at which its L4 summarises at the call where
the agent first compacted itself, no earlier and no later.

The agent decided on tokens (its preTokens); L4 compares the characters of the history after L2. Converting
the agent's count to characters through the token model put the limit thousands of characters off (a
summary 18 calls before the agent's on a public log). So the limit is read off the replay itself: the
pipeline at `settings` with L4 out of reach, the history's size (after L3, L1, L2) at the last call before
the agent's compaction and at the first call after it; the limit sits between the two, on a round step.
"""

from compaction.model.history import History
from compaction.model.settings import LIMITS, Settings
from compaction.replay import lookups
from compaction.replay.loop import replay

ROUND_TO = 100  # characters: the sliders' step


def regime_context_limit(history: History, settings: Settings, window: int | None = None) -> int | None:
    """The CONTEXT_LIMIT (characters) at which the pipeline at `settings` (under the model `window`, the log's
    own by default) first summarises at the first call after the log's own first compaction; None for a log
    that never compacted itself, or whose first compaction has no call before or after it."""
    boundary = lookups.first_boundary_index(history)
    if boundary >= len(history.originals):
        return None
    unreachable = settings.replace(context_limit=LIMITS["context_limit"][1])
    result = replay(history, unreachable, strategy="pipeline", keep_histories=False, model_window_tokens=window)
    before = [c for c in result.calls if c.index < boundary]
    after = next((c for c in result.calls if c.index > boundary), None)
    if not before or after is None:
        return None
    overhead = history.overhead
    below = max(c.chars for c in before) - overhead  # L4 compares the messages alone
    above = after.chars - overhead
    if above <= below:
        return None  # the history did not grow across the compaction: no limit tells them apart
    rounded = -(-below // ROUND_TO) * ROUND_TO  # L4 acts above the limit: at `below` it must not
    return rounded if rounded < above else below
