"""Small edits the peer strategies share: change one field of one block, drop blocks, forget a
middle range without splitting a tool pair. Each works on new lists (never the caller's) and keeps
the per-message sizes exact (`len(str(message))`) without measuring a whole message again when a
field's repr is enough."""

from compaction.layers.snip import cut_points
from compaction.model.events import SnippedRange
from compaction.model.history import History
from compaction.model.messages import Message


def set_block_field(messages: list[Message], sizes: list[int], position: int, block: int, field: str,
                    value) -> int:
    """messages[position]["content"][block][field] = value, on a copy of that message placed in
    `messages` (a list the caller owns); `sizes` follows. Returns the characters removed."""
    message = messages[position]
    content = list(message["content"])
    old_block = content[block]
    content[block] = {**old_block, field: value}
    messages[position] = new = {**message, "content": content}
    before = sizes[position]
    if field in old_block:  # same keys in the same order: only the value's repr changes
        sizes[position] = before + len(repr(value)) - len(repr(old_block[field]))
    else:
        sizes[position] = len(str(new))
    return before - sizes[position]


def drop_blocks(messages: list[Message], sizes: list[int], position: int, blocks: set[int]) -> int:
    """Remove the blocks at `blocks` from messages[position] (a copy, placed in `messages`).
    Returns the characters removed."""
    message = messages[position]
    content = [b for j, b in enumerate(message["content"]) if j not in blocks]
    messages[position] = new = {**message, "content": content}
    before = sizes[position]
    sizes[position] = len(str(new))
    return before - sizes[position]


def forget_middle(history: History, keep_first: int, keep_last: int, layer: str
                  ) -> tuple[History, SnippedRange] | None:
    """history.messages[:keep_first] + history.messages[-keep_last:], the cuts moved so no tool pair
    is split (the head takes in the results that answer it, the tail the calls its results answer);
    None when nothing would be left out. The record holds no index list: a strategy that forgets at
    every call would otherwise keep one the size of the history per call."""
    head_end, tail_start = cut_points(history.messages, keep_first, keep_last)
    if head_end >= tail_start:
        return None
    origins = history.origins  # the first and last original message forgotten, looked for from each end
    first = next((origins[i] for i in range(head_end, tail_start) if origins[i] is not None), None)
    last = next((origins[i] for i in range(tail_start - 1, head_end - 1, -1) if origins[i] is not None), None)
    record = SnippedRange(start=first, end=last, count=tail_start - head_end,
                          size=sum(history.sizes[head_end:tail_start]), layer=layer)
    kept = history.derive(history.messages[:head_end] + history.messages[tail_start:],
                          history.sizes[:head_end] + history.sizes[tail_start:],
                          history.origins[:head_end] + history.origins[tail_start:])
    return kept, record


def tool_names_match(name: str, wanted: tuple[str, ...]) -> bool:
    """Whether a tool's name is one of `wanted`, ignoring case; `read_file` counts as `Read` (a name
    followed by `_` and more), so other agents' tools map onto the canonical names."""
    lowered = name.lower()
    return any(lowered == w or lowered.startswith(w + "_") for w in (w.lower() for w in wanted))
