"""What the agent really did: its own compactions, where its log records them. At each of the log's
compaction points (each agent's reader puts its log's compaction lines in the conversation's metadata)
the history becomes what the log shows the agent kept from there on (the summary it wrote and what
followed), so Compare can set what happened beside every what-if, measured the same way. Every call's
tokens are the ones the log recorded.
"""

from bisect import bisect_right

from compaction.model.calibration import recorded_context
from compaction.model.history import History
from compaction.strategies import actions
from compaction.strategies.base import Step
from compaction.strategies.log_cut import boundary_starts, cut_at, next_index
from compaction.strategies.spec import Source, StrategySpec


def as_recorded_step(history: History, settings, store=None, summarizer=None) -> Step:
    index = next_index(history)
    starts = boundary_starts(history)
    latest = starts[bisect_right(starts, index) - 1] if starts and starts[0] <= index else None
    events: tuple = ()
    acted: tuple[str, ...] = ()
    if latest is not None:
        history, event = cut_at(history, latest, "the agent compacted here, as its log records", "log_compaction")
        if event is not None:
            events, acted = (event,), ("log_compaction",)
    usage = history.recorded.usage
    recorded = recorded_context(usage[index]) if index < len(usage) else None
    if recorded is not None and history.known_tokens != recorded:
        history = history.knowing(recorded)
    return Step(history, acted, events)


AS_RECORDED = StrategySpec(
    name="as-recorded", label="As recorded", title="What the agent did: the log's own compactions",
    actions=(actions.LOG_COMPACTION,),
    family="The log",
    description="Follows the log: at each compaction the agent made, keeps what the log shows it kept (its summary "
                "and what came after); every call's tokens are the ones the log recorded.",
    params=(),
    make=lambda params: as_recorded_step,
    follows_log=True,
    sources=(Source("The loaded log itself: its compaction lines and the usage each call recorded (the Compare "
                    "page's reference rows)", "pages.md"),),
    notes=("Without a compaction of its own in the log, this is the session sent whole at every call.",
           "Where a log keeps old messages after its compaction (a recording that notes the compression but "
           "keeps the history), the messages sent after it are the ones from the note on; the tokens are the "
           "recorded ones all the same.",
           "The summary the agent wrote counts as one summary, priced as a call that read what the log says "
           "the agent's context held then (its preTokens; else what the summary replaced); "
           "its cost is the replay's compaction_calls_cost_usd, apart from the calls the log records.",
           "The loop never compacts a call of it reactively that the log records: the model took that call, "
           "whatever model window is set."),
)

SPECS = (AS_RECORDED,)
