"""L2 micro_compact: keep the KEEP_RECENT newest tool results whole and replace each older one that
is longer than a short minimum with a placeholder. No LLM involved."""

from ..events import LayerResult, Placeholder
from ..history import History, content_repr_len, prepare, result_positions
from ..markers import PLACEHOLDER
from ..messages import content_chars
from ..settings import DEFAULTS, Settings


def micro_compact(conversation, settings: Settings = DEFAULTS, placeholder: str = PLACEHOLDER) -> LayerResult:
    """`placeholder` lets the masking strategy (strategies.py) reuse this layer with its own text."""
    history: History = prepare(conversation)
    placeholder_repr = len(repr(placeholder))
    found = [(position, j) for position in range(len(history.messages))
             for j in result_positions(history, position)]
    if len(found) <= settings.keep_recent:
        return LayerResult(history)
    old = found[:len(found) - settings.keep_recent]
    messages = history.messages
    changes: dict[int, dict[int, dict]] = {}
    events = []
    for position, j in old:
        block = messages[position]["content"][j]
        chars = content_chars(block.get("content", ""))
        if chars <= settings.min_placeholder_chars:
            continue
        changes.setdefault(position, {})[j] = {**block, "content": placeholder}
        tool_use_id = str(block.get("tool_use_id", ""))
        events.append(Placeholder(history.origins[position], tool_use_id, history.tool_name(tool_use_id, history.origins[position]),
                                  chars, placeholder))
    if not changes:
        return LayerResult(history)
    new_messages = list(messages)
    sizes = list(history.sizes)
    for position, replaced in changes.items():
        content = list(messages[position]["content"])
        for j, block in replaced.items():
            sizes[position] += placeholder_repr - content_repr_len(history, position, j)
            content[j] = block
        new_messages[position] = {**messages[position], "content": content}
    return LayerResult(history.derive(new_messages, sizes, list(history.origins)), events)
