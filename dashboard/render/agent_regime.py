"""The agent's own regime as the pipeline's settings, for the Pipeline page's first suggestion on a real log:
no snip (max_messages over the whole session), no placeholders (KEEP_RECENT over every tool result), and L4
where the agent itself compacted (its first compaction point in the log, through the token model), or at
the model window for a log where it never compacted. The same settings as Tune's "Use the agent's regime"
for a log that compacted itself (tests/dashboard_units/test_trade_and_regime.py holds the two equal).
No Streamlit here.
"""

from dataclasses import dataclass

from compaction.model import History
from compaction.strategies import compaction_point
from dashboard.render import tune_axes


@dataclass(frozen=True)
class Regime:
    values: dict[str, int]  # Settings field -> value
    point: int | None  # the tokens the agent compacted at in the log, None when it never did
    window: int  # the model window, where L4 acts for a log that never compacted


def tool_results(history: History) -> int:
    return sum(1 for message in history.messages for block in (message.get("content") or [])
               if isinstance(block, dict) and block.get("type") == "tool_result")


def regime(history: History, window: int, maxima: dict[str, int]) -> Regime:
    """The regime's settings, each within its slider's maximum (`maxima` by Settings field)."""
    point = compaction_point(history)
    messages = tune_axes.regime_max_messages(len(history.messages))[-1]
    limit = tune_axes.converter(history).chars("context_limit", point if point is not None else window)
    values = {"context_limit": min(limit, maxima["context_limit"]),
              "max_messages": min(messages, maxima["max_messages"]),
              "keep_recent": min(max(tool_results(history), 3), maxima["keep_recent"])}
    return Regime(values, point, window)


def regime_sentence(found: Regime, agent: str) -> str:
    """What the regime is, in the agent's name."""
    values = found.values
    where = (f"compacted at {found.point:,} tokens" if found.point is not None else
             f"never compacted in this log, so L4 waits for the model window ({found.window:,} tokens)")
    return (f"{agent} never snipped the middle nor replaced old results, and {where}. In the pipeline: "
            f"max_messages {values['max_messages']:,} (no snip), KEEP_RECENT {values['keep_recent']:,} (no "
            f"placeholders) and CONTEXT_LIMIT {values['context_limit']:,} characters.")
