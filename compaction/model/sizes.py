"""Size as the tutorial measures it: characters of `str(messages)`, the Python repr of the list.

`len(str(msgs)) == sum(len(str(m)) for m in msgs) + 2 * (len(msgs) - 1) + 2` for a non-empty list
(the brackets and the ", " between items), so per-message sizes are computed once and summed.
"""

from collections.abc import Iterable

from compaction.model.messages import Message


def message_size(message: Message) -> int:
    return len(str(message))


def list_chars(total: int, count: int) -> int:
    """`len(str(list))` of `count` items whose own sizes add up to `total`: brackets and ", " between."""
    return total + 2 * max(count - 1, 0) + 2


def list_size(message_sizes: Iterable[int]) -> int:
    """`len(str(list))` from the sizes of its items."""
    if isinstance(message_sizes, list | tuple):  # the common case, summed at C speed
        return list_chars(sum(message_sizes), len(message_sizes))
    total = 0
    count = 0
    for size in message_sizes:
        total += size
        count += 1
    return list_chars(total, count)


def history_size(messages: list[Message]) -> int:
    return list_size(message_size(m) for m in messages)

