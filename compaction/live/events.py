"""What a format's line reader finds in a line, in the same few words for every agent: a model call (or
a later line of the same call), a compaction, text written into the conversation (and, by their sizes,
the answers and the files read, which some compactions keep), a fact about the session. The session
(session.py) turns them into per-call records; nothing here holds a message's text.
"""

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class CallSeen:
    """A model call's usage (importers/usage.py: the four counts, `model`, the cache writes' split)."""

    line: int
    usage: dict[str, Any]
    time: str | None = None
    # False: a response interrupted before its usage was written (an agent's reasoning, then the person's stop). The
    # replay counts it as a call, so the follower numbers it too: the previous call's context, no output, no cost
    measured: bool = True


@dataclass(frozen=True)
class CallGrew:
    """A later line of the newest call with its usage as it stands now (the output count grows as a
    response is written line by line)."""

    usage: dict[str, Any]


@dataclass(frozen=True)
class CompactionSeen:
    line: int
    trigger: str | None  # "auto", "manual", or None when the log does not say
    pre_tokens: int | None = None  # the agent's own count when it compacted
    post_tokens: int | None = None  # what it said the conversation kept (when the agent's log says)
    time: str | None = None
    summary_chars: int | None = None  # when the same line holds the summary (as some agents write it)


@dataclass(frozen=True)
class SummarySeen:
    """The summary a compaction put in the history, by its size, when a line of its own holds it (Claude
    Code's `isCompactSummary` line)."""

    chars: int


@dataclass(frozen=True)
class Written:
    """Text added to the conversation after the newest call: a tool result, or a turn of the person."""

    chars: int
    person: bool = False


@dataclass(frozen=True)
class Answered:
    """The text of a response, by its size (already counted in its output): some compactions keep the
    agent's answers (a remote compaction's replacement history)."""

    chars: int


@dataclass(frozen=True)
class FileRead:
    """A file the agent read into the conversation (its path and the size of what came back): some agents
    attach the files read last again after a compaction."""

    path: str
    chars: int


@dataclass(frozen=True)
class Fact:
    """Something about the session the log says: `version`, `window`, `session_id`."""

    name: str
    value: Any


@dataclass(frozen=True)
class Note:
    """Something to tell the person once (a rewind, a layout without token counts)."""

    line: int
    text: str
    kind: str


Event = CallSeen | CallGrew | CompactionSeen | SummarySeen | Written | Answered | FileRead | Fact | Note
