"""What the Pipeline and What changed pages run on when the log compacted itself.

Such a log holds the agent's own summaries: messages it wrote only because it compacted. Passing them
through the layers again would summarise a summary. So the one pass runs either on the whole history
with those summaries left out, or on the history as the agent had it after its last compaction: its last
summary and what came after it. That summary is part of what is sent (its size counts in "Sent" and in
L4's check), and no layer touches it (model/keep.py: an agent's own summary is kept verbatim).
Message numbers stay those of the loaded conversation (the view's origins). No Streamlit here.
"""

from dataclasses import dataclass

from compaction.model import History
from dashboard.render.units import describe

WITHOUT_SUMMARIES = "without-agent-summaries"
AFTER_LAST = "after-last-compaction"
VIEWS = (WITHOUT_SUMMARIES, AFTER_LAST)
VIEW_TITLES = {WITHOUT_SUMMARIES: "The whole history, without the agent's own summaries",
               AFTER_LAST: "The history as the agent had it after its last compaction"}


@dataclass(frozen=True)
class LogView:
    history: History  # what the layers run on
    view: str | None  # one of VIEWS; None when the log never compacted itself
    compactions: int  # the log's own compactions
    left_out: tuple[int, ...] = ()  # the agent's summaries not passed through the layers (original indices)
    start: int = 0  # the first original message of what the layers run on
    ahead_chars: int = 0  # characters of the agent's summary sent first, as it is (AFTER_LAST)


def compacted_itself(history: History) -> bool:
    return bool(history.recorded.boundaries or history.recorded.agent_summaries)


def _boundary_starts(history: History) -> list[int]:
    return sorted(b["index"] for b in history.recorded.boundaries
                  if isinstance(b, dict) and isinstance(b.get("index"), int) and not isinstance(b["index"], bool))


def log_view(history: History, view: str) -> LogView:
    """The history the one pass runs on (see the module docstring); `history` is the loaded conversation."""
    if not compacted_itself(history):
        return LogView(history, None, 0)
    summaries = history.recorded.agent_summaries
    starts = _boundary_starts(history)
    compactions = max(len(starts), len(summaries))
    start = 0
    if view == AFTER_LAST:
        start = max(starts + [index for index in summaries], default=0)
    after = view == AFTER_LAST
    # after the last compaction, its summary is sent first: it stays in, and no layer touches it
    left_out = () if after else tuple(sorted(summaries))
    kept = [index for index in range(start, len(history.messages)) if after or index not in summaries]
    derived = history.derive([history.messages[i] for i in kept], [history.sizes[i] for i in kept], kept)
    ahead = sum(history.sizes[i] for i in kept if i in summaries) if after else 0
    return LogView(derived, view if view in VIEWS else WITHOUT_SUMMARIES, compactions, left_out, start, ahead)


def view_sentence(view: LogView, unit: str) -> str | None:
    """What the pass runs on, in one sentence; None for a log that never compacted itself."""
    if view.view is None:
        return None
    times = {1: "once", 2: "twice"}.get(view.compactions, f"{view.compactions:,} times")
    count = len(view.left_out)
    summaries = "summary" if count == 1 else f"{count:,} summaries" if count else "no summary of its own"
    model = view.history.token_model
    if view.view == AFTER_LAST:
        first = next((origin for origin in view.history.origins if origin is not None), view.start)
        return (f"This log compacted itself {times}. The layers run on what the agent had after its last "
                f"compaction: messages {first:,} to the end of the loaded conversation. The first is its own summary "
                f"({describe(view.ahead_chars, unit, model)}): it is sent, and counted in what is sent, as it is; "
                "no layer summarises a summary again.")
    return (f"This log compacted itself {times}. The layers run on the whole history with the agent's own "
            f"{summaries} left out ({'it exists' if count == 1 else 'they exist'} only because it compacted, and a "
            "summary is never summarised again).")
