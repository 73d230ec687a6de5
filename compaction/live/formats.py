"""The logs the live view can follow, one entry per agent that registers a reader of its lines
(compaction/agents/): how a line of its log is recognised, the reader that turns lines into events, and
the strategy whose rule is the agent's own. The follower and `compaction watch` read this table and name
no agent themselves.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from compaction.live.events import Event


class Reader(Protocol):
    def read(self, number: int, line: dict) -> list[Event]: ...


@dataclass(frozen=True)
class LiveFormat:
    name: str  # the format's name (importers/formats.py), which is the agent's
    title: str
    recognise: Callable[[dict], bool]  # whether a JSON object is a line of this log
    lines: Callable[[], Reader]  # a new reader of its JSON lines
    own_strategy: str  # the strategy (and forecast rule) that is the agent's own
    looks: str  # what its lines look like, for the message a file of no known log gets
    document: Callable[[], Reader] | None = None  # a new reader of a .json recording read whole
    is_recording: Callable[[object], bool] | None = None  # whether a parsed .json document is its recording
    recording_looks: str = ""  # what its recording looks like, for the message another document gets
    rank: int = 500  # recognition order, lowest first (the least particular shapes last)
    # a compaction's post_tokens is the whole context it kept (not only its summary)
    post_tokens_is_context: bool = False
    # a first call's cache read is the system prompt and tools (a provider that caches the prompt's prefix as
    # written, as Anthropic's does); False: a partial read, and the prefix is the call less what was written
    first_read_is_prefix: bool = True


_TABLE: dict[str, LiveFormat] = {}


def register(entry: LiveFormat) -> LiveFormat:
    if entry.name in _TABLE:
        raise ValueError(f"the live format {entry.name!r} is registered already")
    _TABLE[entry.name] = entry
    return entry


def live_formats() -> tuple[LiveFormat, ...]:
    """Every followable log, in the agents registry's order."""
    return tuple(_TABLE.values())


def names() -> tuple[str, ...]:
    return tuple(entry.name for entry in live_formats())


def live_format(name: str) -> LiveFormat:
    return _TABLE[name]


def recognise(value: dict) -> str | None:
    """The name of the log a JSON object is a line of, or None."""
    ranked = sorted(_TABLE.values(), key=lambda entry: entry.rank)
    return next((entry.name for entry in ranked if entry.recognise(value)), None)


def document_format() -> LiveFormat | None:
    """The log that is one JSON document rewritten as it grows (followed by reading it whole)."""
    return next((entry for entry in _TABLE.values() if entry.document is not None), None)


def titles(joined: str = "or") -> str:
    """'A, B or C': the titles of every followable log."""
    found = [entry.title for entry in _TABLE.values()]  # the agents registry's order
    return found[0] if len(found) == 1 else f"{', '.join(found[:-1])} {joined} {found[-1]}"
