"""Whether a replayed history is still what the agent itself sent: the log's messages unchanged, in order,
from the start or from the log's latest compaction (its new start first, after the messages before it the
log says the agent kept). Where it is, the tokens the log
recorded for that call are the history's own, not an estimate (an agent's preset counts from them, as the
agent did).
"""

from compaction.model.calibration import recorded_context
from compaction.model.history import History


def sent_by_the_agent(history: History, position: int) -> bool:
    """Whether messages[:position + 1] are what the agent itself had when it made the call at `position`: the
    log's messages unchanged, in order, from the start or from the log's latest compaction before it (its new
    start first), leaving out the agent's other summaries."""
    if history.known_tokens is not None:  # the replay knows this very history is the agent's
        return True
    origins, messages, originals = history.origins, history.messages, history.prepared.messages
    last = origins[position]
    if last is None:
        return False
    starts = [b["index"] for b in history.recorded.boundaries if isinstance(b, dict) and isinstance(b.get("index"), int)
              and b["index"] <= last]
    start = max(starts, default=0)
    summaries = history.recorded.agent_summaries
    kept = kept_before(history, start) if starts else []
    if starts and start not in summaries and not kept:  # the log notes the compaction, not what was sent after it
        return False
    expected = kept + [i for i in range(start, last + 1) if i == start or i not in summaries]
    return origins[:position + 1] == expected and all(
        messages[p] is originals[expected[p]] for p in range(position + 1))


def kept_before(history: History, start: int) -> list[int]:
    """The messages before the log's compaction at `start` that the agent still sent after it, where the log
    says so (its boundary's `kept`: an agent that drops a middle and keeps the head)."""
    boundary = next((b for b in history.recorded.boundaries if isinstance(b, dict) and b.get("index") == start), {})
    kept = boundary.get("kept")
    return sorted(i for i in kept if isinstance(i, int) and 0 <= i < start) if isinstance(kept, list) else []


def upcoming_call(history: History) -> int | None:
    """The original index of the call about to be sent after `history` (its newest original message's next,
    past the agent's own summaries, which a replay does not append); None for a history of no original."""
    newest = next((origin for origin in reversed(history.origins) if origin is not None), None)
    if newest is None:
        return None
    call = newest + 1
    while call in history.recorded.agent_summaries:
        call += 1
    return call


def recorded_tokens(history: History, call: int) -> int | None:
    """The context the log recorded for the call at original index `call`, or None."""
    usage = history.recorded.usage
    return recorded_context(usage[call]) if 0 <= call < len(usage) and usage[call] else None


def newest_call(history: History) -> int | None:
    """Where the newest assistant message (the newest call's reply) is, or None before the first call."""
    return next((p for p in range(len(history.messages) - 1, -1, -1)
                 if history.messages[p].get("role") == "assistant"), None)


def context_through(history: History, position: int) -> int:
    """The tokens of the call at `position` with its reply: messages[:position + 1] (the newest call's
    prompt and output, which an agent reads from the provider's usage)."""
    return history.derive(history.messages[:position + 1], history.sizes[:position + 1],
                          history.origins[:position + 1]).context_tokens
