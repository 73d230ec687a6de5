"""Tokens each message of a log adds to a call, measured from what the log recorded, and a history's
tokens summed from them.

Between two calls of a log the recorded context grows by exactly what was added in between (the
response, the tool results, the next prompt, and what the agent sends with them that the log does not
hold), so where the log recorded both calls and nothing was compacted or cleared between them (the growth
is not negative), the messages of that stretch weigh that growth, shared by their characters. Elsewhere
(before the first recorded call, across one of the log's own compactions, where the context dropped) a
message weighs what the token model gives its characters. A fixed part (the system prompt and tools) is
what the first recorded call carried beyond its messages.

So a history that keeps the log's messages as they were, in any order and after any summary, is counted
with the log's own growth: a what-if compacted at a different call than the agent grows as the agent's
context grew, not at the token model's one rate for every kind of content (a screenshot's base64 weighs
little for its length, code and prose differ; one calibration over the session before its first
compaction misses both). A message a layer changed weighs its share of what it weighed (by characters);
one a layer made weighs what the caller says, else the token model's rate.
"""

from compaction.model.calibration import recorded_context
from compaction.model.history import History

KEY = "message_tokens"


def message_tokens(history: History) -> tuple[tuple[float, ...], float]:
    """(tokens of each original message, fixed tokens of every call) of `history`'s conversation, worked
    out once per prepared conversation."""
    return history.shared_value(KEY, lambda: _measure(history))


def _measure(history: History) -> tuple[tuple[float, ...], float]:
    prepared, model = history.prepared, history.token_model
    sizes, usage = prepared.sizes, prepared.recorded.usage
    per_char = model.content_tokens(1_000_000) / 1_000_000
    weights = [per_char * (size + 2) for size in sizes]  # + 2: the ", " between messages of the list
    calls = [i for i, message in enumerate(prepared.messages) if message.get("role") == "assistant"
             and i < len(usage) and recorded_context(usage[i])]
    if not calls:
        return tuple(weights), model.tokens(prepared.overhead + 2)
    compacted = sorted(b["index"] for b in prepared.recorded.boundaries
                       if isinstance(b, dict) and isinstance(b.get("index"), int))
    for before, after in zip(calls, calls[1:], strict=False):
        if any(before < index <= after for index in compacted):
            continue  # the agent compacted between them: its growth is not these messages'
        growth = (recorded_context(usage[after]) or 0) - (recorded_context(usage[before]) or 0)
        if growth < 0:
            continue  # the agent cleared something: what was added is not known
        chars = sum(sizes[before:after]) + 2 * (after - before)
        for index in range(before, after):
            weights[index] = growth * (sizes[index] + 2) / chars
    fixed = recorded_context(usage[calls[0]]) - sum(weights[:calls[0]])
    return tuple(weights), fixed


def history_tokens(history: History, made: dict[int, tuple[dict, float]] | None = None) -> int:
    """Tokens of a call sending `history`: the fixed part and each message's weight (`made`: id(message) ->
    (the message, its tokens) for messages a layer made; the message is kept so that its id stays its own)."""
    weights, fixed = message_tokens(history)
    originals, sizes = history.prepared.messages, history.prepared.sizes
    per_char = history.token_model.content_tokens(1_000_000) / 1_000_000
    total = fixed
    for message, size, origin in zip(history.messages, history.sizes, history.origins, strict=True):
        if origin is None:
            found = made.get(id(message)) if made else None
            total += found[1] if found is not None and found[0] is message else per_char * (size + 2)
        elif message is originals[origin]:
            total += weights[origin]
        else:  # a layer changed it (a preview, a placeholder): its share of what it weighed
            total += weights[origin] * (size + 2) / (sizes[origin] + 2)
    return max(round(total), 1)
