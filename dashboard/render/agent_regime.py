"""The agent's own regime as the pipeline's settings, one function for Pipeline's "Use <agent>'s regime" and
Tune's "Use the agent's regime" (so Replay, after either, compacts where the agent did): no snip
(max_messages over the whole session), no placeholders (KEEP_RECENT over every tool result), and the
CONTEXT_LIMIT at which the pipeline's L4 first summarises at the call the agent first compacted at, read off
the replay (compaction/replay/regime.py); its compaction point through the token model where the replay
cannot tell, and the model window for a log where it never compacted. No Streamlit here.
"""

from dataclasses import dataclass

from compaction.model import DEFAULTS, History, Settings
from compaction.replay import regime_context_limit, regime_point
from dashboard.render import tune_axes


@dataclass(frozen=True)
class Regime:
    values: dict[str, int]  # Settings field -> value
    point: int | None  # the tokens the agent compacted at in the log, None when it never did
    window: int  # the model window, where L4 acts for a log that never compacted
    compactions: int = 0  # the log's own compactions, of which none showed the agent's regime when point is None


def tool_results(history: History) -> int:
    return sum(1 for message in history.messages for block in (message.get("content") or [])
               if isinstance(block, dict) and block.get("type") == "tool_result")


def regime(history: History, window: int, maxima: dict[str, int], settings: Settings = DEFAULTS) -> Regime:
    """The regime's settings, each within its slider's maximum (`maxima` by Settings field); `settings`
    holds the other settings the pipeline runs at (the sidebar's)."""
    point = regime_point(history)  # the agent's automatic compaction after this log's first calls
    messages = tune_axes.regime_max_messages(len(history.messages))[-1]
    values = {"max_messages": min(messages, maxima["max_messages"]),
              "keep_recent": min(max(tool_results(history), 3), maxima["keep_recent"])}
    replayed = regime_context_limit(history, settings.replace(**values), window) if point is not None else None
    limit = replayed or tune_axes.converter(history).chars("context_limit", point if point is not None else window)
    return Regime({"context_limit": min(limit, maxima["context_limit"]), **values}, point, window,
                  len(history.recorded.boundaries))


def regime_sentence(found: Regime, agent: str) -> str:
    """What the regime is, in the agent's name."""
    values = found.values
    waits = f"so L4 waits for the model window ({found.window:,} tokens)"
    where = (f"compacted at {found.point:,} tokens" if found.point is not None else
             f"never compacted in this log, {waits}" if not found.compactions else
             f"compacted in this log only before its first calls (a session resumed from an earlier one, "
             f"at that session's size: nothing of this log's), {waits}")
    limit = (" (where the pipeline's L4 first summarises at the call the agent first compacted at)"
             if found.point is not None else "")
    return (f"{agent} never snipped the middle nor replaced old results, and {where}. In the pipeline: "
            f"max_messages {values['max_messages']:,} (no snip), KEEP_RECENT {values['keep_recent']:,} (no "
            f"placeholders) and CONTEXT_LIMIT {values['context_limit']:,} characters{limit}.")
