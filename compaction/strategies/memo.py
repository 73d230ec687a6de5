"""Work carried from one call to the next of a replay, so a strategy looks only at what is new.

A strategy that edits every request afresh (clear all but the newest tool results of the whole
history) would cost a Python pass over the history at every call. Instead it remembers, in
`history.memo` (shared by every history derived from one prepared conversation), the messages it
worked on and what it derived from them; at the next call, whose history starts with those same
messages, it resumes from there. The memo only saves time: a history that does not extend the
remembered messages is worked out from scratch, so no result depends on it.
"""

from collections.abc import Hashable
from typing import Any

from compaction.model.history import History


def resume(history: History, key: Hashable) -> tuple[int, Any] | None:
    """(how many leading messages of `history` were seen before, what was derived from them), or
    None when `history` does not start with the remembered messages."""
    saved = history.memo.get(key)
    if saved is None:
        return None
    messages, state = saved
    count = len(messages)
    # list equality checks identity first, so the usual case (the same message objects) runs at C speed
    if count > len(history.messages) or history.messages[:count] != messages:
        return None
    return count, state


def remember(history: History, key: Hashable, messages: list, state: Any) -> None:
    history.memo[key] = (messages, state)


def memo_key(name: str, params: dict) -> tuple:
    return (name, tuple(sorted(params.items())))
