"""Every conversation format the lab reads, in one table: its name, its title for people, the file
suffixes it comes in, how to recognise it, and how to load it. Detection, the CLI's `--format` choices,
the dashboard's upload types and page help, corpus discovery and the benchmarks all read this table.

The generic formats (Anthropic Messages, OpenAI chat, the lab's own trace) are entered here; each agent's
own format is registered by its package (compaction/agents/), so a new agent adds no line to this module.

Detection tries the entries by rank: a parsed JSON document against each `document` sniffer, JSON lines
against each `lines` sniffer, other text against each `text` sniffer. The entry ranked last of the JSON
kinds accepts anything, so the error a file gets is that format's own, naming the line or field.
"""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compaction.importers import anthropic, openai, trace
from compaction.importers.jsonl import JsonLines
from compaction.model.conversation import Conversation

CATCH_ALL = 1_000  # the rank of the entry that accepts any document or any JSON lines


@dataclass(frozen=True)
class Format:
    name: str  # stable: `--format`, JSON output and Conversation.format use it (an agent's format: its name)
    title: str  # for people: the Format metric, tables
    described: str  # what a file of this format holds, for the upload's help
    suffixes: tuple[str, ...]  # with the dot, lower case
    # JSON document -> a Conversation (None: the format is JSON lines only; a one-line file is read as lines)
    load_document: Callable[[Any, str], Conversation] | None = None
    load_lines: Callable[[JsonLines], Conversation] | None = None  # None: one JSON document only
    document: Callable[[Any], bool] | None = None  # recognises a parsed document
    lines: Callable[[list[tuple[int, dict]]], bool] | None = None  # recognises the objects of JSON lines
    # a format that is not JSON: (text, label) -> Conversation, and its recogniser of the text's head
    load_text: Callable[[str, str], Conversation] | None = None
    text: Callable[[str], bool] | None = None
    document_rank: int = 500  # detection order among the document sniffers, lowest first
    lines_rank: int = 500  # and among the JSON lines sniffers
    aliases: tuple[str, ...] = ()  # other names `--format` accepts for it
    # a binary file (a database): its recogniser of the bytes, and the reading of the whole file (its bytes, a
    # label, and its path when it has one: a database is read where it lies, with the files beside it)
    binary: Callable[[bytes], bool] | None = None
    load_bytes: Callable[[bytes, str, Path | None], Conversation] | None = None
    # a file that may hold several sessions: their keys (importers/runs.py), and the reading of one of them
    sessions: Callable[[Path], tuple] | None = None
    load_session: Callable[[Path, Any, str], Conversation] | None = None
    marks: tuple[str, ...] = ()  # the keys its objects carry: an unknown file sharing them resembles it
    load_path: Callable[[Path, str | None], Conversation | None] | None = None  # a folder, or a file with its twin beside


def anything(_value) -> bool:
    """The recogniser of a catch-all entry."""
    return True


_TABLE: dict[str, Format] = {}
_ALIASES: dict[str, str] = {}


def register(entry: Format) -> Format:
    """Enter a format (an agent's package calls this); a name taken twice is a programming error."""
    if entry.name in _TABLE or entry.name in _ALIASES:
        raise ValueError(f"the format {entry.name!r} is registered already")
    _TABLE[entry.name] = entry
    _ALIASES.update((alias, entry.name) for alias in entry.aliases)
    return entry


for _generic in (
    Format("anthropic", "Anthropic", "Anthropic Messages: a request body or a list of messages (JSON), or one "
           "message a line (JSONL)", (".json", ".jsonl"), anthropic.from_json, anthropic.from_lines,
           anything, anthropic.lines_look_like, document_rank=CATCH_ALL, lines_rank=400,
           marks=("messages", "role", "content", "system", "tools", "max_tokens")),
    Format("openai", "OpenAI chat", "an OpenAI chat conversation (JSON)", (".json",), openai.from_json,
           None, openai.looks_like, document_rank=600,
           marks=("messages", "role", "content", "tool_calls", "tool_call_id", "function_call")),
    Format("compaction-trace", "Compaction Lab trace", "the trace of the lab's compacting client (one line per model "
           "call, with the usage the API answered)", (".jsonl",), None, trace.load, None, trace.looks_like,
           lines_rank=100),
):
    register(_generic)


def all_formats() -> tuple[Format, ...]:
    """Every format, generic ones first, then the agents' in the agents registry's order."""
    return tuple(_TABLE.values())


def find(name: str) -> Format | None:
    """The format of a name or an alias; None for an unknown one."""
    return _TABLE.get(_ALIASES.get(name, name))


def choices() -> tuple[str, ...]:
    """The values of `--format`: "auto", every format's name, then the older names still accepted."""
    return ("auto", *_TABLE, *_ALIASES)


def suffixes() -> tuple[str, ...]:
    """Every suffix a session file of some format comes in."""
    return tuple(sorted({suffix for entry in _TABLE.values() for suffix in entry.suffixes}))


def detect_document(value: Any) -> Format:
    return next(entry for entry in _ranked("document") if entry.document is not None and entry.document(value))


def detect_lines(objects: list[tuple[int, dict]]) -> Format:
    return next(entry for entry in _ranked("lines") if entry.lines is not None and entry.lines(objects))


def detect_binary(data: bytes) -> Format | None:
    """The binary format (a database) whose recogniser accepts the file's bytes, or None."""
    return next((entry for entry in _TABLE.values() if entry.binary is not None and entry.binary(data)), None)


def detect_text(head: str) -> Format | None:
    """The format that is not JSON whose recogniser accepts the head of a file's text, or None."""
    return next((entry for entry in _TABLE.values() if entry.text is not None and entry.text(head)), None)


def _ranked(kind: str) -> list[Format]:
    rank = "document_rank" if kind == "document" else "lines_rank"
    return sorted((entry for entry in _TABLE.values() if getattr(entry, kind) is not None),
                  key=lambda entry: getattr(entry, rank))


def title_of(name: str) -> str:
    found = find(name)
    return found.title if found else name
