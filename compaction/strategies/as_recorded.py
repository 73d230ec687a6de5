"""What the agent really did: its own compactions, where its log records them. At each of the log's
compaction points (each agent's reader puts its log's compaction lines in the conversation's metadata)
the history becomes what the log shows the agent kept from there on (the summary it wrote and what
followed), so Compare can set what happened beside every what-if, measured the same way. Every call's
tokens are the ones the log recorded.
"""

from bisect import bisect_right

from compaction.model.calibration import recorded_context
from compaction.model.events import SummaryEvent
from compaction.model.history import History
from compaction.model.mending import mended_join
from compaction.model.sizes import message_size
from compaction.strategies import actions
from compaction.strategies.agent_sent import kept_before
from compaction.strategies.base import Step
from compaction.strategies.spec import Source, StrategySpec

LOG_SUMMARIZER = "the agent itself (its log)"


def _boundary_starts(history: History) -> list[int]:
    def build() -> list[int]:
        return sorted(b["index"] for b in history.recorded.boundaries
                      if isinstance(b, dict) and isinstance(b.get("index"), int) and not isinstance(b["index"], bool))
    return history.shared_value("log_boundary_starts", build)


def _pre_tokens(history: History, start: int) -> int | None:
    """What the agent counted in its context when it compacted at `start` (what its summary call read), where
    the log says it."""
    found = next((b.get("pre_tokens") for b in history.recorded.boundaries
                  if isinstance(b, dict) and b.get("index") == start), None)
    return found if isinstance(found, int) and not isinstance(found, bool) and found > 0 else None


def _next_index(history: History) -> int:
    """The original index of the call about to be sent: just after the newest original message (and
    after the agent's own summaries, which the replay does not append)."""
    found = next((origin + 1 for origin in reversed(history.origins) if origin is not None), 0)
    while found in history.recorded.agent_summaries:
        found += 1
    return found


def as_recorded_step(history: History, settings, store=None, summarizer=None) -> Step:
    index = _next_index(history)
    starts = _boundary_starts(history)
    latest = starts[bisect_right(starts, index) - 1] if starts and starts[0] <= index else None
    events: tuple = ()
    acted: tuple[str, ...] = ()
    cut = len(history.origins) if latest is None else next(
        (p for p, o in enumerate(history.origins) if o is not None and o >= latest), len(history.origins))
    kept = set(kept_before(history, latest)) if latest is not None else set()  # a head the agent still sent
    dropped = tuple(o for o in history.origins[:cut] if o is not None and o not in kept)
    if latest is not None and dropped:
        # what the agent kept: from its compaction on (a reactive compaction of a smaller window may have
        # made messages of its own); the replay leaves the agent's own summary out, so it is put back here
        stay = [p for p in range(cut) if history.origins[p] in kept] + list(range(cut, len(history.origins)))
        messages, sizes, origins = ([history.messages[p] for p in stay], [history.sizes[p] for p in stay],
                                    [history.origins[p] for p in stay])
        for at in range(1, len(stay)):  # where the agent dropped a middle, the pairs across it are mended
            if stay[at] != stay[at - 1] + 1 and (joined := mended_join(messages[at - 1], messages[at])) is not messages[at]:
                messages[at], sizes[at] = joined, message_size(joined)
        if latest in history.recorded.agent_summaries and latest not in origins:
            messages, sizes, origins = ([history.originals[latest], *messages], [history.prepared.sizes[latest], *sizes],
                                        [latest, *origins])
        summary = history.originals[latest].get("content") if latest < len(history.originals) else ""
        events = (SummaryEvent(True, "the agent compacted here, as its log records", LOG_SUMMARIZER,
                               summary if isinstance(summary, str) else str(summary), None, None, dropped,
                               "log_compaction", _pre_tokens(history, latest)),)
        acted = ("log_compaction",)
        history = history.derive(messages, sizes, origins)
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
