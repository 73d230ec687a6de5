"""The pipeline in the agent's own regime: the CONTEXT_LIMIT at which its L4 summarises at the call where
the agent first compacted itself, no earlier and no later.

The agent decided on tokens (its preTokens); L4 compares the characters of the history after L2. Converting
the agent's count to characters through the token model put the limit thousands of characters off (a
summary 18 calls before the agent's on a public log). So the limit is read off the replay itself: the
pipeline at `settings` with L4 out of reach, the history's size (after L3, L1, L2) at the last call before
the agent's compaction and at the first call after it; the limit sits between the two, on a round step.
"""

from compaction.model.calibration import recorded_context
from compaction.model.history import History
from compaction.model.settings import LIMITS, Settings
from compaction.replay.loop import replay

ROUND_TO = 100  # characters: the sliders' step
CARRIED_SHARE = 0.5  # of the agent's count at a compaction, the call before it carried at least (when both known)


def _this_logs(history: History, boundary: dict, calls: list[int]) -> bool:
    """Whether the context the agent compacted at grew in this log: a call before it, which carried at least
    CARRIED_SHARE of the agent's count when both are recorded. A session resumed from an earlier one
    compacts at its start, at the earlier session's size."""
    before = [i for i in calls if i < boundary["index"]]
    if not before:
        return False
    carried, counted = recorded_context(history.recorded.usage[before[-1]]) if before[-1] < len(
        history.recorded.usage) else None, boundary.get("pre_tokens")
    return not (isinstance(carried, int) and isinstance(counted, int) and carried < CARRIED_SHARE * counted)


def regime_boundary(history: History) -> dict | None:
    """The log's compaction the agent's regime is read from: its first automatic one whose context grew in
    this log, else its first compaction of the person's that did (a /compact still shows a size the agent
    ran at). A resumed session's compaction before its first calls gave one log a limit of 200 characters,
    and L4 summarised at every call. None: no such compaction."""
    calls = [i for i, message in enumerate(history.originals) if message.get("role") == "assistant"]
    found = [b for b in history.recorded.boundaries if isinstance(b, dict) and isinstance(b.get("index"), int)
             and not isinstance(b["index"], bool) and _this_logs(history, b, calls)]
    found.sort(key=lambda b: (b.get("trigger") == "manual", b["index"]))
    return found[0] if found else None


def regime_point(history: History) -> int | None:
    """The tokens the agent counted at the compaction its regime is read from (its preTokens), where known."""
    found = regime_boundary(history)
    tokens = found.get("pre_tokens") if found else None
    return tokens if isinstance(tokens, int) and not isinstance(tokens, bool) and tokens > 0 else None


def regime_context_limit(history: History, settings: Settings, window: int | None = None) -> int | None:
    """The CONTEXT_LIMIT (characters) at which the pipeline at `settings` (under the model `window`, the log's
    own by default) first summarises at the first call after the log's compaction of regime_boundary; None
    for a log with no such compaction, or with no call after it."""
    found = regime_boundary(history)
    if found is None:
        return None
    boundary = found["index"]
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
