"""One loader for the conversation formats people bring (the table of them: formats.py).

`load_conversation(source, format="auto", name=None)` returns a Conversation in Anthropic form, with
the detected format, warnings (message indices) and metadata. Bad input raises ConversationError
naming the file and the line, field or message index; never a bare exception. A file of several sessions
(an evaluation output's runs, a chat history's runs: runs.py) lists them with `sessions_in(source)`, and
`load_run(source, key)` reads one; a corpus makes each a row, the upload offers a picker.
"""

from pathlib import Path
from typing import Any

from compaction.errors import ConversationError
from compaction.importers.collector import collector_paused
from compaction.importers.formats import (
    CATCH_ALL,
    all_formats,
    choices,
    detect_document,
    detect_lines,
    detect_text,
    find,
    suffixes,
    title_of,
)
from compaction.importers.jsonl import JsonLines, read_lines
from compaction.importers.limits import check_value_count
from compaction.importers.runs import RunKey, run_line, runs_in, runs_in_data
from compaction.importers.source import (
    MAX_FILE_BYTES,
    MAX_NESTING_DEPTH,
    decode_utf8,
    kind_of,
    parse_document,
    read_source,
)
from compaction.importers.surrogates import might_hold_surrogates, without_lone_surrogates
from compaction.importers.totals import has_tokens, input_of
from compaction.model.conversation import Conversation

TEXT_HEAD = 65_536  # bytes of a file that is not JSON shown to the text formats' recognisers


def load_conversation(source: str | Path | bytes, format: str = "auto", name: str | None = None) -> Conversation:
    """Load a conversation file (path) or its contents (bytes); `name` labels it in messages."""
    chosen = None if format == "auto" else find(format)
    if format != "auto" and chosen is None:
        raise ConversationError(f"unknown format {format!r}; expected one of {', '.join(choices())}")
    data, label = read_source(source, name)
    check_value_count(data, label)  # before parsing: the memory bound (docs/limits.md)
    with collector_paused():
        conversation, by_orjson = _parse(data, label, chosen)
    # orjson refuses lone surrogates: only text the standard parser read can hold one
    if not by_orjson and might_hold_surrogates(data):
        conversation = without_lone_surrogates(conversation)
    return conversation


def load_run(path: str | Path | bytes, key: RunKey, name: str | None = None) -> Conversation:
    """Session `key` of a file holding several (sessions_in), as a conversation of its own; `name` labels it
    in messages. ConversationError when the file no longer holds that session, or it cannot be read."""
    data, label = read_source(path, name)
    if key.format is not None:
        entry = find(key.format)
        if entry is None or entry.load_session is None:
            raise ConversationError(f"no format {key.format!r} reads the sessions of a file", where=label)
        return entry.load_session(data, key, label)
    row = run_line(data, key, label)
    found = detect_lines([(key.line, row)])
    if found.lines_rank == CATCH_ALL or found.load_lines is None:  # no format knows runs like it: the catch-all's words would mislead
        named = f" (run {key.instance})" if key.instance else ""
        raise ConversationError(f"line {key.line:,}{named}: no format here reads its 'history' (its first event is "
                                f"{kind_of(next(iter(row['history']), None))})", where=label)
    with collector_paused():
        conversation = found.load_lines(JsonLines(label, [(key.line, row)]))
    # the standard parser read the line when orjson would not: only then can it hold a lone surrogate
    return without_lone_surrogates(conversation) if might_hold_surrogates(data) else conversation


def sessions_in(source: str | Path | bytes, name: str | None = None) -> tuple[RunKey, ...]:
    """The sessions of a file that holds two or more: the runs of an evaluation output, or those its format
    lists (Format.sessions); () for a file of one session, or one that cannot be read (its loading says
    why). A path is read only when its name is one a format with sessions comes in."""
    if isinstance(source, str | Path):
        path = Path(source)
        found = runs_in(path)
        lower = path.name.lower()
        if found or not any(entry.sessions and lower.endswith(entry.suffixes) for entry in all_formats()):
            return found
        try:
            data, label = read_source(path, name)
        except (ConversationError, OSError):
            return ()
    else:
        data, label = source, name or "upload"
        found = runs_in_data(data)
        if found:
            return found
    entry = _text_format(data) if data[:TEXT_HEAD].lstrip()[:1] not in (b"{", b"[") else None
    if entry is None or entry.sessions is None:
        return ()
    try:
        keys = entry.sessions(data, label)
    except ConversationError:
        return ()
    return keys if len(keys) > 1 else ()


def _parse(data: bytes, label: str, chosen) -> tuple[Conversation, bool]:
    """The conversation, and whether orjson parsed all of it (one document)."""
    text_format = chosen if chosen is not None and chosen.load_text is not None else None
    if text_format is None and chosen is None and data[:TEXT_HEAD].lstrip()[:1] not in (b"{", b"["):
        text_format = _text_format(data)
    if text_format is not None:
        return text_format.load_text(decode_utf8(data, label), label), False
    if chosen is not None and chosen.load_document is None:  # a lines format: even one line is a log
        return chosen.load_lines(read_lines(data, label)), False
    document = parse_document(data, label)
    if document is None:  # JSON lines
        lines = read_lines(data, label)
        found = chosen or detect_lines(lines.objects)
        if found.load_lines is None:
            raise ConversationError(f"the {found.name} format is one JSON document, not JSON lines", where=label)
        return found.load_lines(lines), False
    found = chosen or detect_document(document.value)
    if found.load_document is not None:
        return found.load_document(document.value, label), document.by_orjson
    if found.load_lines is not None:
        return found.load_lines(read_lines(data, label)), False
    raise ConversationError(f"the {found.name} format is not JSON", where=label)


def _text_format(data: bytes):
    """The text format (not JSON) that recognises the file, or None: the JSON path then words the error."""
    return detect_text(data[:TEXT_HEAD].decode("utf-8", "ignore"))


def detect_format(value: Any) -> str:
    """The name of the format of a parsed JSON document."""
    return detect_document(value).name


__all__ = ["MAX_FILE_BYTES", "MAX_NESTING_DEPTH", "RunKey", "all_formats", "choices", "detect_format", "has_tokens",
           "input_of", "load_conversation", "load_run", "sessions_in", "suffixes", "title_of"]
