"""The person's own actions in a log happen in every what-if: a /compact they typed (with its focus text:
the summary the log holds is the one written for it) and a /clear. Only the agent's automatic behaviour is
the strategy's. Before a strategy's step, the call that comes first after one of the person's compactions
starts from what the log shows was kept there, as As recorded does; from there the strategy goes on.

Which compactions are the person's: those whose trigger the reader gives as PERSON_TRIGGERS ("manual":
a compaction the person typed /compact for; "clear": a /clear that emptied the chat). While the history is still the
log's since the person's latest compaction (nothing the strategy did, no compaction of the log's own
between), its tokens are the ones the log recorded, as before the log's first compaction.
"""

from bisect import bisect_right

from compaction.model.calibration import recorded_context
from compaction.model.history import History
from compaction.strategies.base import Step
from compaction.strategies.log_cut import boundary_starts, cut_at, next_index

PERSON_TRIGGERS = ("manual", "clear")
PERSON_COMPACTION = "person_compaction"
PERSON_ACTIONS = "the log holds the person's own compactions, which only the reference loop makes"
REASON = "the person compacted here (/compact or /clear), as the log records: every what-if does it too"


def person_starts(history: History) -> list[int]:
    return boundary_starts(history, PERSON_TRIGGERS)


def has_person_actions(history: History) -> bool:
    return bool(person_starts(history))


def person_step(history: History) -> Step:
    """The history the strategy's step starts from: cut at the person's latest compaction before the call
    about to be made, if it is not cut yet; with the log's tokens while it is still the log's."""
    starts = person_starts(history)
    if not starts:
        return Step(history)
    index = next_index(history)
    position = bisect_right(starts, index) - 1
    if position < 0:
        return Step(history)
    latest = starts[position]
    acted: tuple[str, ...] = ()
    events: tuple = ()
    history, event = cut_at(history, latest, REASON, PERSON_COMPACTION)
    if event is not None:
        acted, events = (PERSON_COMPACTION,), (event,)
    if _still_the_logs(history, latest, index):
        usage = history.recorded.usage
        recorded = recorded_context(usage[index]) if index < len(usage) else None
        if recorded is not None and history.known_tokens != recorded:
            history = history.knowing(recorded)
    return Step(history, acted, events)


def _still_the_logs(history: History, latest: int, index: int) -> bool:
    """The history is the log's own since the person's compaction at `latest`: no compaction of the log's
    between it and the call at `index`, every message the original one."""
    if any(latest < start < index for start in boundary_starts(history)):
        return False
    originals = history.originals
    return all(origin is not None and message is originals[origin]
               for message, origin in zip(history.messages, history.origins, strict=True))
