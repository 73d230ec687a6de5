"""The one shape every strategy has: `step(history, settings, store, summarizer) -> Step`.

A step is pure: it never changes the history it is given (nor its messages) and returns a new one,
with tool pairs valid in what is sent. `Step.carry` is for edits made by an API to each request while
the client keeps its full history (Anthropic's context editing): the loop sends `history` and appends
the next messages to `carry`.
"""

from collections.abc import Callable
from dataclasses import dataclass

from compaction.model.events import SummaryEvent
from compaction.model.history import History
from compaction.model.settings import Settings
from compaction.storage.outputs import OutputStore
from compaction.summarizers import Summarizer


@dataclass(frozen=True)
class Step:
    """What a strategy did before one model call."""

    history: History  # what is sent
    acted: tuple[str, ...] = ()  # what changed the history (or tried to summarise), names from the spec's `actions`
    events: tuple = ()
    # the size compared with CONTEXT_LIMIT, None if the strategy does not look at it: a replay in
    # which it never went over the limit is the same for every larger limit (the sweep reuses it)
    checked_size: int | None = None
    # the history the loop keeps for the next call; None: the one sent (the edit is permanent)
    carry: History | None = None
    # (tokens, threshold) an agent's preset compared to decide whether to compact (the tokens measured
    # whatever the threshold); None when it reads its threshold anywhere else but in words: a sweep's cells
    # that differ only in that threshold (StrategySpec's threshold_params) made the same call while on the
    # same side of it (sweep/thresholds.py)
    compared: tuple[int, int] | None = None

    @property
    def kept(self) -> History:
        return self.history if self.carry is None else self.carry


# every step takes the store and the summariser as optional (None: the layer's own default)
StepFunction = Callable[[History, Settings, OutputStore | None, Summarizer | None], Step]


def summaries_made(events) -> int:
    return sum(1 for e in events if isinstance(e, SummaryEvent) and e.succeeded)
