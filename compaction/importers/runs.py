"""Evaluation output files, one agent run a line (an evaluation's `output.jsonl`): each line holds a
run's conversation under `history`, and its `instance_id` names it. Loaded as one file, the first run
is loaded, with a warning naming how many the file holds; a corpus reads each run as a session of its
own (`runs_in` lists them, importers.load_run reads one). A database that holds several sessions (a
format's `sessions`) is listed the same way, a key each.
"""

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compaction.errors import ConversationError
from compaction.importers.formats import all_formats
from compaction.importers.jsonl import JsonLines
from compaction.importers.limits import MAX_FILE_BYTES
from compaction.importers.source import loads_line
from compaction.model.conversation import Conversation, LoadWarning

RUNS_SUFFIX = ".jsonl"  # one run a line: JSON lines
TEXT_HEAD = 65_536  # bytes of a file shown to a text format's recogniser (as importers.load_conversation does)
_FIRST_LINES = 50  # lines looked at for the first object (blank lines, // notes, a CLI's plain-text lines)

# a format's reading of one run: (the part of the line its reader takes, a label) -> the Conversation
Reader = Callable[[Any, str], Conversation]


def is_run_record(value: dict) -> bool:
    """A line of an evaluation's output file: one agent run, its conversation under `history`."""
    return isinstance(value.get("history"), list) and "type" not in value and "role" not in value


def whole_line(row: dict) -> Any:
    """The part of a run's line a format reads when its reader takes the line itself."""
    return row


def runs_of(looks_like: Callable[[Any], bool], part: Callable[[dict], Any]):
    """Recognises JSON lines whose first object is a run of the format whose `looks_like` accepts its
    `part` (which tells one format's runs from another's)."""
    def recognise(objects: list[tuple[int, dict]]) -> bool:
        if not objects or not is_run_record(objects[0][1]):
            return False
        return looks_like(part(objects[0][1]))
    return recognise


def first_run_of(name: str, from_json: Reader, part: Callable[[dict], Any]):
    def load(lines: JsonLines) -> Conversation:
        if not lines.objects or not is_run_record(lines.objects[0][1]):
            raise ConversationError(f"the {name} format is one JSON document, or JSON lines of runs "
                                    "(each with its 'history'), not these JSON lines", where=lines.label)
        number, row = lines.objects[0]
        conversation = from_json(part(row), f"{lines.label}: line {number}")
        if instance_of(row):
            conversation.metadata["instance_id"] = instance_of(row)
        runs = len(lines.objects)
        if runs > 1:
            instance = row.get("instance_id") or number
            conversation.warnings.insert(0, LoadWarning(
                f"the file holds {runs:,} runs, one a line; the first (instance {instance}) is loaded",
                kind="first_run"))
        conversation.source = lines.label
        return conversation
    return load


@dataclass(frozen=True)
class RunKey:
    """One run of an evaluation output: what travels to a worker beside the file's path."""

    line: int  # the run's line in the file, from 1
    name: str  # its instance_id (with its line when two runs share one), else "line N"
    instance: str | None = None  # the instance_id as written, checked again when the run is read
    format: str | None = None  # a format that lists and reads the file's sessions itself (formats.py: sessions)


# what a format's lister gives for a file that is a piece of a session read from another file (one message
# of a storage folder): a corpus leaves it out
PART_OF_A_SESSION = (RunKey(0, "a piece of a session read from another file"),)


def instance_of(row: dict) -> str | None:
    found = row.get("instance_id")
    return found if isinstance(found, str) and found.strip() else None


def runs_in(path: Path, name: str | None = None) -> tuple[RunKey, ...]:
    """The runs of a JSON-lines file holding two or more (each line a run with its `history`); () for any
    other file, which is one session, or one that cannot be read here (its reading says why). Only the
    first object line is parsed unless the file is such an output. A format that lists the sessions of its
    own files (a database, an export of several, a chat history of several runs) gives their keys. `name`:
    the name the file came under when its path does not carry it (an upload kept under its content's
    hash); a text format then also knows its files by their first lines, whatever their name."""
    named = (name or path.name).lower()
    listed = next((found for entry in all_formats() if entry.sessions is not None
                   and (named.endswith(entry.suffixes) or name is not None and _text_of(entry, path))
                   and (found := entry.sessions(path))), ())
    if listed:
        return listed
    if not named.endswith(RUNS_SUFFIX):
        return ()
    try:
        with path.open("rb") as handle:
            if os.fstat(handle.fileno()).st_size > MAX_FILE_BYTES or not _opens_with_a_run(handle):
                return ()
            handle.seek(0)
            data = handle.read()
    except OSError:
        return ()
    keys: list[RunKey] = []
    names: set[str] = set()
    for number, raw in enumerate(data.split(b"\n"), start=1):
        row = _object(raw)
        if row is None or not is_run_record(row):
            continue
        instance = instance_of(row)
        name = instance or f"line {number}"
        if name in names:
            name = f"{name} (line {number})"
        names.add(name)
        keys.append(RunKey(number, name, instance))
    return tuple(keys) if len(keys) > 1 else ()


def _text_of(entry, path: Path) -> bool:
    """Whether `path`'s head is a file of the text format `entry` (its recogniser of the text)."""
    if entry.text is None:
        return False
    try:
        with path.open("rb") as handle:
            head = handle.read(TEXT_HEAD)
    except OSError:
        return False
    return head.lstrip()[:1] not in (b"{", b"[") and entry.text(head.decode("utf-8", "ignore"))


def run_line(data: bytes, key: RunKey, label: str) -> dict:
    """The line of run `key` in a file's bytes; ConversationError when it no longer holds that run (the
    file changed since its runs were listed)."""
    lines = data.split(b"\n", key.line)
    row = _object(lines[key.line - 1]) if len(lines) >= key.line else None
    if row is None or not is_run_record(row) or instance_of(row) != key.instance:
        raise ConversationError(f"line {key.line:,} no longer holds run {key.name} (the file changed since its "
                                "runs were listed): read the folder again", where=label)
    return row


def _opens_with_a_run(handle) -> bool:
    for _ in range(_FIRST_LINES):
        line = handle.readline()
        if not line:
            return False
        text = line.strip()
        if text and not text.startswith(b"//") and not text[:1].isalpha():
            row = _object(text) if b'"history"' in text else None
            return row is not None and is_run_record(row)
    return False


def _object(raw: bytes) -> dict | None:
    text = raw.strip()
    if not text.startswith(b"{"):
        return None
    try:
        value = loads_line(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None
