"""Writers of agents' own log formats, for `generate --format`, the bundled samples and generated corpora.
Each agent's package that can write its log registers one (compaction/agents/); the generic formats
(Anthropic Messages, OpenAI chat) are written by the modules beside this one.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePosixPath


@dataclass(frozen=True)
class Placed:
    """A generated session laid out as the agent keeps it on disk."""

    relative: PurePosixPath  # under the corpus folder
    text: str
    project: str  # the project folder's name, as the agent names it


@dataclass(frozen=True)
class LogWriter:
    format: str  # the format it writes: its agent's name
    render: Callable[[list[dict], int, bool], str]  # (messages, seed, message ids) -> the file's text
    place: Callable[[list[dict], int, str, datetime], Placed]  # (messages, seed, cwd, start) as kept on disk
    samples: Callable[[], dict[str, str]]  # the bundled sample files it writes: {file name: text}


_WRITERS: dict[str, LogWriter] = {}


def register(writer: LogWriter) -> LogWriter:
    if writer.format in _WRITERS:
        raise ValueError(f"a writer of {writer.format!r} is registered already")
    _WRITERS[writer.format] = writer
    return writer


def writers() -> tuple[LogWriter, ...]:
    return tuple(_WRITERS.values())


def writer(format: str) -> LogWriter | None:
    return _WRITERS.get(format)
