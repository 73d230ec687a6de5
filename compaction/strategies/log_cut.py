"""The history at one of the log's compaction points: from there on, what the log shows was kept (the
summary written, or nothing after a /clear, and what followed). As recorded does it at each of the log's
compactions; every what-if at the person's own (person.py)."""

from compaction.model.events import SummaryEvent
from compaction.model.history import History

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


def not_yet_cut(history: History, start: int) -> bool:
    """Whether the history still holds messages from before the compaction at `start`."""
    first = next((origin for origin in history.origins if origin is not None), None)
    return first is not None and first < start


def cut_at(history: History, start: int, reason: str, layer: str) -> tuple[History, SummaryEvent]:
    """The history from the log's compaction at `start` on (a reactive compaction of a smaller window may
    have made messages of its own since), with the log's own summary put back (the replay leaves the
    agent's summaries out); the event says what it replaced."""
    cut = next((p for p, o in enumerate(history.origins) if o is not None and o >= start), len(history.origins))
    messages, sizes, origins = history.messages[cut:], history.sizes[cut:], history.origins[cut:]
    if start in history.recorded.agent_summaries and start not in origins:
        messages, sizes, origins = ([history.originals[start], *messages], [history.prepared.sizes[start], *sizes],
                                    [start, *origins])
    summary = history.originals[start].get("content") if start < len(history.originals) else ""
    event = SummaryEvent(True, reason, LOG_SUMMARIZER, summary if isinstance(summary, str) else str(summary), None,
                         None, tuple(o for o in history.origins[:cut] if o is not None), layer,
                         pre_tokens(history, start))
    return history.derive(messages, sizes, origins), event
