"""Clearing thinking blocks from all but the newest assistant turns of a request (Anthropic's
`clear_thinking_20251015`), carried from call to call like clearing.py carries cleared results.

A turn is every assistant message from one message of the person to the next: a tool-use loop
(assistant, tool results, assistant, ...) is one turn. Only turns holding thinking count.
"""

from dataclasses import dataclass

from compaction.model.history import History
from compaction.model.messages import has_tool_result
from compaction.strategies.edits import drop_blocks
from compaction.strategies.memo import remember, resume

THINKING_TYPES = ("thinking", "redacted_thinking")


@dataclass(frozen=True)
class Thinking:
    entries: tuple[tuple[int, int, frozenset[int]], ...]  # (thinking turn number, position, blocks), in order
    turns_seen: int  # assistant turns so far, with or without thinking
    last_thinking_turn: int  # the turn (of turns_seen) that holds the newest thinking, -1 if none
    messages: list  # the request: entries[:cleared] removed
    sizes: list
    cleared: int
    cleared_chars: int

    @property
    def thinking_turns(self) -> int:
        return self.entries[-1][0] + 1 if self.entries else 0

    @property
    def cleared_turns(self) -> int:
        return self.entries[self.cleared - 1][0] + 1 if self.cleared else 0


def _scan(history: History, start: int, previous: Thinking) -> tuple[list, int, int]:
    entries = []
    turns, last = previous.turns_seen, previous.last_thinking_turn
    ordinal = previous.thinking_turns - 1
    messages = history.messages
    for position in range(start, len(messages)):
        message = messages[position]
        if message.get("role") != "assistant":
            continue
        before = messages[position - 1] if position else None
        if before is None or not (before.get("role") == "assistant" or has_tool_result(before)):
            turns += 1  # a new turn: the person spoke (or the history starts here)
        content = message.get("content")
        blocks = frozenset(j for j, b in enumerate(content) if isinstance(b, dict) and b.get("type") in THINKING_TYPES
                           ) if isinstance(content, list) else frozenset()
        if blocks:
            if turns != last:
                ordinal, last = ordinal + 1, turns
            entries.append((ordinal, position, blocks))
    return entries, turns, last


def clear_old_thinking(history: History, key, keep: int) -> Thinking:
    """The request with the thinking blocks of all but the newest `keep` thinking turns removed."""
    resumed = resume(history, key)
    count, previous = resumed if resumed is not None else (0, Thinking((), 0, -1, [], [], 0, 0))
    found, turns, last = _scan(history, count, previous)
    entries = previous.entries + tuple(found)
    messages = previous.messages + history.messages[count:]
    sizes = previous.sizes + history.sizes[count:]
    newest = entries[-1][0] + 1 if entries else 0
    cleared, chars = previous.cleared, previous.cleared_chars
    while cleared < len(entries) and entries[cleared][0] < newest - keep:
        _, position, blocks = entries[cleared]
        chars += drop_blocks(messages, sizes, position, set(blocks))
        cleared += 1
    done = Thinking(entries, turns, last, messages, sizes, cleared, chars)
    remember(history, key, history.messages, done)
    return done
