"""What a replay looks up in the conversation it walks, each found once per prepared conversation and
shared like its other indexes: where the log's own compactions fall among the calls, the turns that call
the compact tool, how much tool output came before each message, and how much of it a call sent whole."""

from bisect import bisect_left

from compaction.layers.compact_tool import compact_calls, compact_focus
from compaction.model.history import History
from compaction.model.messages import content_chars
from compaction.model.running import RunningHistory


def call_number(call: int) -> int:
    """The number a 0-based call carries on the pages, in the report, in `compaction compactions`, in every
    JSON and in `composition --call`: from 1 (the first model call is call 1)."""
    return call + 1


def boundaries_by_call(boundaries: list, call_indices: list[int]) -> list[dict]:
    """The log's own compactions with "call": the first call sent after each (None when none follows)."""
    found = []
    for boundary in boundaries:
        index = boundary.get("index") if isinstance(boundary, dict) else None
        if isinstance(index, int) and not isinstance(index, bool):
            call = bisect_left(call_indices, index)
            found.append({**boundary, "call": call if call < len(call_indices) else None})
    return found


def first_boundary_index(prepared: History) -> int:
    """The message index of the log's first compaction of its own (the length when it has none): before
    it, the whole history is what the agent sent."""
    indexes = [b["index"] for b in prepared.recorded.boundaries
               if isinstance(b, dict) and isinstance(b.get("index"), int) and not isinstance(b.get("index"), bool)]
    return min(indexes, default=len(prepared.originals))


def compact_turns(prepared: History) -> dict[int, list[str | None]]:
    """Original index -> [focus] of each message that calls the compact tool."""
    def build() -> dict[int, list[str | None]]:
        return {index: [compact_focus(calls)] for index, message in enumerate(prepared.originals)
                if message.get("role") == "assistant" and (calls := compact_calls(message))}

    return prepared.shared_value("compact_turns", build)


def output_chars_before(prepared: History) -> list[int]:
    """Characters of tool output in the original messages before each index (prefix sums)."""
    def build() -> list[int]:
        found, total = [0], 0
        for origin, message in enumerate(prepared.originals):
            if origin in prepared.result_blocks:
                content = message["content"]
                total += sum(content_chars(content[j].get("content", "")) for j in prepared.result_blocks[origin])
            found.append(total)
        return found

    return prepared.shared_value("output_chars_before", build)


def new_outputs(history: History | RunningHistory, first_new: int, end: int,
                output_chars: list[int]) -> tuple[int, int]:
    """(characters of the tool outputs that arrived in originals[first_new:end], of those sent whole).

    They sit at the tail of the history unless a summary took them; a block is whole when the sent
    message still holds the original block object (layers copy what they change)."""
    originals, origins = history.originals, history.origins
    positions_of = history.result_blocks.positions
    produced = output_chars[end] - output_chars[first_new]
    whole = 0
    for position in range(len(origins) - 1, -1, -1):
        origin = origins[position]
        if origin is None:
            continue
        if origin < first_new:
            break
        blocks = positions_of(origin)
        if not blocks:
            continue
        sent = history.messages[position]["content"]
        original = originals[origin]["content"]
        for j in blocks:
            if sent[j] is original[j]:
                whole += content_chars(original[j].get("content", ""))
    return produced, whole
