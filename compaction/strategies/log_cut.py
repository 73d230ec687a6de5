"""The history at one of the log's compaction points: from there on, what the log shows was kept (the
summary written, or nothing after a /clear, and what followed). As recorded does it at each of the log's
compactions; every what-if at the person's own (person.py)."""

from compaction.model.events import SummaryEvent
from compaction.model.history import History
from compaction.model.mending import mended_join
from compaction.model.sizes import message_size
from compaction.strategies.agent_sent import kept_before

LOG_SUMMARIZER = "the agent itself (its log)"


def boundary_starts(history: History, triggers: tuple[str, ...] | None = None) -> list[int]:
    """The original indexes where the log's compactions start (those of `triggers`, None: every one)."""
    def build() -> list[int]:
        return sorted(b["index"] for b in history.recorded.boundaries
                      if isinstance(b, dict) and isinstance(b.get("index"), int) and not isinstance(b["index"], bool)
                      and (triggers is None or b.get("trigger") in triggers))
    return history.shared_value(("log_boundary_starts", triggers), build)


def pre_tokens(history: History, start: int) -> int | None:
    """What the agent counted in its context when it compacted at `start` (what its summary call read), where
    the log says it."""
    found = next((b.get("pre_tokens") for b in history.recorded.boundaries
                  if isinstance(b, dict) and b.get("index") == start), None)
    return found if isinstance(found, int) and not isinstance(found, bool) and found > 0 else None


def next_index(history: History) -> int:
    """The original index of the call about to be sent: just after the newest original message (and
    after the agent's own summaries, which the replay does not append)."""
    found = next((origin + 1 for origin in reversed(history.origins) if origin is not None), 0)
    while found in history.recorded.agent_summaries:
        found += 1
    return found


def cut_at(history: History, start: int, reason: str, layer: str) -> tuple[History, SummaryEvent | None]:
    """The history from the log's compaction at `start` on, and the event saying what it replaced; None when
    nothing is left to drop (cut already). What the agent kept: from its compaction on (a reactive compaction
    of a smaller window may have made messages of its own), and a head it still sent (kept_before); the
    replay leaves the agent's own summary out, so it is put back here."""
    cut = next((p for p, o in enumerate(history.origins) if o is not None and o >= start), len(history.origins))
    kept = set(kept_before(history, start))
    dropped = tuple(o for o in history.origins[:cut] if o is not None and o not in kept)
    if not dropped:
        return history, None
    stay = [p for p in range(cut) if history.origins[p] in kept] + list(range(cut, len(history.origins)))
    messages, sizes, origins = ([history.messages[p] for p in stay], [history.sizes[p] for p in stay],
                                [history.origins[p] for p in stay])
    for at in range(1, len(stay)):  # where the agent dropped a middle, the pairs across it are mended
        if stay[at] != stay[at - 1] + 1 and (joined := mended_join(messages[at - 1], messages[at])) is not messages[at]:
            messages[at], sizes[at] = joined, message_size(joined)
    if start in history.recorded.agent_summaries and start not in origins:
        messages, sizes, origins = ([history.originals[start], *messages], [history.prepared.sizes[start], *sizes],
                                    [start, *origins])
    summary = history.originals[start].get("content") if start < len(history.originals) else ""
    event = SummaryEvent(True, reason, LOG_SUMMARIZER, summary if isinstance(summary, str) else str(summary), None,
                         None, dropped, layer, pre_tokens(history, start))
    return history.derive(messages, sizes, origins), event
