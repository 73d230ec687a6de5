"""What every cell of a grid reads of one prepared conversation, worked out once and kept as arrays.

The kernel walks a conversation in the coordinates of its *joined* messages (those that enter a history:
every message but the agent's own summaries, which a what-if never sees), numbered 0..NJ-1 in order, and
of their tool_result blocks, ranked 0..NB-1 in message and block order. Prefix sums over both turn the
history a call sends (a summary, a head, the snip marker, a tail, placeholders) into a handful of
differences: `len(str(history))` is the sum of the messages' sizes plus separators (model/sizes.py).
"""

from dataclasses import dataclass

import numpy as np

from compaction.model.history import History
from compaction.model.markers import PLACEHOLDER
from compaction.model.messages import content_chars, has_tool_use


@dataclass(frozen=True, eq=False)
class Columns:
    calls: np.ndarray  # original index of the assistant message of each call
    joined: np.ndarray  # original index of each joined message
    joined_before: np.ndarray  # per original index i (and n): how many joined messages come before i
    sizes: np.ndarray  # original size of each joined message
    size_sums: np.ndarray  # prefix sums of `sizes` (NJ + 1)
    uses: list[bool]  # per joined message: it holds a tool_use (L1's pair protection)
    answers: list[bool]  # per joined message: it holds a tool_result
    blocks_before: np.ndarray  # per joined position (and NJ): tool_result blocks in the messages before it
    block_message: np.ndarray  # per block: its joined position
    block_position: np.ndarray  # per block: its position in the message's content
    block_chars: np.ndarray  # per block: content_chars of its original content
    block_repr: np.ndarray  # per block: len(repr(content)) of its original content
    join_call: np.ndarray  # per joined message: the first call whose history holds it (C: none)
    first_keys: list[tuple]  # per joined message: what its content starts with (see first_key)
    first_codes: np.ndarray  # the same as numbers, equal where the keys are
    # a tool result whose content is the placeholder itself: L2 would rewrite it to an equal message and
    # stop its walk there, which the kernel does not model
    literal_placeholder: bool

    @property
    def call_count(self) -> int:
        return len(self.calls)

    def last_before(self, call: int) -> int:
        """The joined position of the newest message before the call (-1: none)."""
        return int(self.joined_before[self.calls[call]]) - 1


def columns_of(prepared: History, call_indices: list[int]) -> Columns:
    """The columns of `prepared` (a replay context's conversation), kept beside its other indexes."""
    return prepared.shared_value(("kernel-columns", len(call_indices)), lambda: _build(prepared, call_indices))


def _build(prepared: History, call_indices: list[int]) -> Columns:
    messages, sizes = prepared.originals, prepared.sizes
    skipped = prepared.recorded.agent_summaries
    joined = [i for i in range(len(messages)) if i not in skipped] if skipped else list(range(len(messages)))
    joined_before = np.zeros(len(messages) + 1, dtype=np.int64)
    marks = np.ones(len(messages), dtype=np.int64)
    if skipped:
        marks[[i for i in skipped if 0 <= i < len(messages)]] = 0
    np.cumsum(marks, out=joined_before[1:])
    result_blocks = prepared.result_blocks
    uses, answers, counts = [], [], []
    block_message, block_position, block_chars, block_repr = [], [], [], []
    for position, origin in enumerate(joined):
        message = messages[origin]
        uses.append(has_tool_use(message))
        found = result_blocks.positions(origin)
        answers.append(bool(found))
        counts.append(len(found))
        content: list = message["content"] if found else []
        for j in found:
            block_message.append(position)
            block_position.append(j)
            block_chars.append(content_chars(content[j].get("content", "")))
            block_repr.append(prepared.prepared.content_repr(origin, j))
    blocks_before = np.zeros(len(joined) + 1, dtype=np.int64)
    np.cumsum(np.asarray(counts, dtype=np.int64), out=blocks_before[1:])
    joined_array = np.asarray(joined, dtype=np.int64)
    calls = np.asarray(call_indices, dtype=np.int64)
    joined_sizes = np.asarray(sizes, dtype=np.int64)[joined_array] if joined else np.zeros(0, dtype=np.int64)
    size_sums = np.zeros(len(joined) + 1, dtype=np.int64)
    np.cumsum(joined_sizes, out=size_sums[1:])
    return Columns(calls, joined_array, joined_before, joined_sizes, size_sums, uses, answers, blocks_before,
                   np.asarray(block_message, dtype=np.int64), np.asarray(block_position, dtype=np.int64),
                   np.asarray(block_chars, dtype=np.int64), np.asarray(block_repr, dtype=np.int64),
                   np.searchsorted(calls, joined_array, side="right").astype(np.int64),
                   *_keys([first_key(messages[origin]) for origin in joined]),
                   _holds_placeholder(messages, joined, block_message, block_position, block_repr))


def _keys(keys: list[tuple]) -> tuple[list[tuple], np.ndarray]:
    codes: dict[tuple, int] = {}
    return keys, np.asarray([codes.setdefault(key, len(codes)) for key in keys], dtype=np.int64)


def first_key(message: dict) -> tuple:
    """A short description of how a message's content starts, equal for equal contents, and equal for
    every version of one message a layer leaves (they keep each block's type and ids): two messages whose
    keys differ are different, and share no leading block."""
    content = message.get("content")
    if isinstance(content, str):
        return ("string", content)
    if not isinstance(content, list) or not content:
        return ("empty", type(content).__name__)
    block = content[0]
    if not isinstance(block, dict):
        return ("other", repr(block)[:80])
    kind = block.get("type")
    if kind == "tool_result":
        return ("tool_result", repr(block.get("tool_use_id")))
    if kind == "tool_use":
        return ("tool_use", repr(block.get("id")))
    if kind == "text":
        text = block.get("text")
        return ("text", text) if isinstance(text, str) else ("text", repr(text))
    return ("block", repr(kind), len(block))


def _holds_placeholder(messages, joined, block_message, block_position, block_repr) -> bool:
    length = len(repr(PLACEHOLDER))
    return any(messages[joined[k]]["content"][j].get("content") == PLACEHOLDER
               for k, j, found in zip(block_message, block_position, block_repr, strict=True) if found == length)
