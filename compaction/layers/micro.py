"""L2 micro_compact: keep the KEEP_RECENT newest tool results whole and replace each older one that
is longer than a short minimum with a placeholder. No LLM involved.

It looks from the newest result back, and stops at a placeholder it wrote before (in a message a
layer made, never in the input): in the agent loop the history carries the previous call's output, in
which every older long result was already replaced, so a call looks only at what is new.
"""

from ..events import LayerResult, Placeholder
from ..history import History, content_repr_len, prepare, result_positions
from ..markers import PLACEHOLDER
from ..messages import content_chars
from ..settings import DEFAULTS, Settings


def micro_compact(conversation, settings: Settings = DEFAULTS, placeholder: str = PLACEHOLDER) -> LayerResult:
    """`placeholder` lets the masking strategy (strategies.py) reuse this layer with its own text."""
    history: History = prepare(conversation)
    placeholder_repr = len(repr(placeholder))
    messages = history.messages
    changes: dict[int, dict[int, dict]] = {}
    events = []
    seen = 0
    for position, j in _results_newest_first(history):
        seen += 1
        if seen <= settings.keep_recent:
            continue
        block = messages[position]["content"][j]
        if block.get("content") == placeholder and not history.is_original(position):
            break  # replaced by an earlier run: every older one was handled then
        chars = content_chars(block.get("content", ""))
        if chars <= settings.min_placeholder_chars:
            continue
        changes.setdefault(position, {})[j] = {**block, "content": placeholder}
        tool_use_id = str(block.get("tool_use_id", ""))
        events.append(Placeholder(history.origins[position], tool_use_id, history.tool_name(tool_use_id, history.origins[position]),
                                  chars, placeholder))
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
    for position in range(len(history.messages) - 1, -1, -1):
        for j in reversed(result_positions(history, position)):
            yield position, j
