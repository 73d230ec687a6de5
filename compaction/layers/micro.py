"""L2 micro_compact: keep the KEEP_RECENT newest tool results whole and replace each older one that
is longer than a short minimum with a placeholder. No LLM involved.

It looks from the newest result back, and stops at a placeholder it wrote before (in a message a
layer made, never in the input): in the agent loop the history carries the previous call's output, in
which every older long result was already replaced, so a call looks only at what is new. A result the
settings keep verbatim (model/keep.py) is left whole and not counted among the KEEP_RECENT.
"""

from compaction.model.events import LayerResult, Placeholder
from compaction.model.history import History, content_repr_len, prepare
from compaction.model.keep import kept_ids, kept_result
from compaction.model.markers import PLACEHOLDER
from compaction.model.messages import content_chars, tool_result_positions
from compaction.model.settings import DEFAULTS, Settings


def micro_compact(conversation, settings: Settings = DEFAULTS, placeholder: str = PLACEHOLDER) -> LayerResult:
    """`placeholder` lets the masking strategy (strategies/tutorial.py) reuse this layer with its own text."""
    history: History = prepare(conversation)
    placeholder_repr = len(repr(placeholder))
    messages = history.messages
    changes: dict[int, dict[int, dict]] = {}
    events = []
    keep, minimum = settings.keep_recent, settings.min_placeholder_chars
    kept = kept_ids(history, settings)
    seen = 0
    for position, j, untouched in _results_newest_first(history):
        block = messages[position]["content"][j]
        if kept and kept_result(block, kept):
            continue
        seen += 1
        if seen <= keep:
            continue
        if not untouched and block.get("content") == placeholder:
            break  # replaced by an earlier run: every older one was handled then
        chars = content_chars(block.get("content", ""))
        if chars <= minimum:
            continue
        changes.setdefault(position, {})[j] = {**block, "content": placeholder}
        tool_use_id = str(block.get("tool_use_id", ""))
        origin = history.origins[position]
        events.append(Placeholder(origin, tool_use_id, history.tool_name(tool_use_id, origin), chars, placeholder))
    if not changes:
        return LayerResult(history)
    events.reverse()  # oldest first, as they sit in the history
    new_messages = list(messages)
    sizes = list(history.sizes)
    for position, replaced in changes.items():
        content = list(messages[position]["content"])
        for j, block in replaced.items():
            sizes[position] += placeholder_repr - content_repr_len(history, position, j)
            content[j] = block
        new_messages[position] = {**messages[position], "content": content}
    return LayerResult(history.derive(new_messages, sizes, list(history.origins)), events)


def _results_newest_first(history: History):
    """(position, block, whether the message is the original's) of each tool result, newest first.
    history.is_original and result_positions inlined: this walk runs at every call of a replay."""
    messages, origins, originals = history.messages, history.origins, history.originals
    positions_of = history.result_blocks.positions
    for position in range(len(messages) - 1, -1, -1):
        origin = origins[position]
        message = messages[position]
        if origin is not None and message is originals[origin]:
            untouched, blocks = True, positions_of(origin)
        else:
            untouched, blocks = False, tool_result_positions(message)
        for j in reversed(blocks):
            yield position, j, untouched
