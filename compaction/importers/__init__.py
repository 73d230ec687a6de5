"""One loader for the conversation formats people bring (the table of them: formats.py).

`load_conversation(source, format="auto", name=None)` returns a Conversation in Anthropic form, with
the detected format, warnings (message indices) and metadata. Bad input raises ConversationError
naming the file and the line, field or message index; never a bare exception. A file of several sessions
(an evaluation output's runs, a chat history's runs, a database's sessions: runs.py, a format's `sessions`
and `load_session`) lists them with `sessions_in(path)` and `load_run(path, key)` reads one; a corpus makes
each a row, the upload offers a picker. A file of no known format is told what it most resembles, or what
the lab reads (unknown.py).
"""

from pathlib import Path
from typing import Any

from compaction.errors import ConversationError
from compaction.importers.collector import collector_paused
from compaction.importers.formats import (
    CATCH_ALL,
    all_formats,
    choices,
    detect_binary,
    detect_document,
    detect_lines,
    detect_text,
    find,
    suffixes,
    title_of,
)
from compaction.importers.jsonl import JsonLines, read_lines
from compaction.importers.limits import check_value_count
from compaction.importers.runs import RunKey, run_line, runs_in
from compaction.importers.source import (
    MAX_FILE_BYTES,
    MAX_NESTING_DEPTH,
    decode_utf8,
    kind_of,
    not_text,
    parse_document,
    read_source,
)
from compaction.importers.surrogates import might_hold_surrogates, without_lone_surrogates
from compaction.importers.totals import has_tokens, input_of
from compaction.importers.unknown import document_keys, guarded, keys_of, unknown
from compaction.model.conversation import Conversation

TEXT_HEAD = 65_536  # bytes of a file that is not JSON shown to the text formats' recognisers


def load_conversation(source: str | Path | bytes, format: str = "auto", name: str | None = None) -> Conversation:
    """Load a conversation file (path) or its contents (bytes); `name` labels it in messages."""
    chosen = None if format == "auto" else find(format)
    if format != "auto" and chosen is None:
        raise ConversationError(f"unknown format {format!r}; expected one of {', '.join(choices())}")
    if isinstance(source, str | Path):  # a format that reads a folder, or a file with what lies beside it
        found = next((c for entry in ([chosen] if chosen else all_formats()) if entry.load_path is not None
                      and (c := entry.load_path(Path(source), name)) is not None), None)
        if found is not None:
            return found
    data, label = read_source(source, name)
    binary = detect_binary(data) if chosen is None else chosen if chosen.binary and chosen.binary(data) else None
    if binary is not None and binary.load_bytes is not None:  # a database: read from its path where it has one
        with collector_paused():
            return binary.load_bytes(data, label, None if isinstance(source, bytes | bytearray) else Path(source))
    if chosen is not None and binary is None and not (chosen.load_document or chosen.load_lines or chosen.load_text):
        raise ConversationError(f"not {chosen.described}: the file is not such a database", where=label)
    check_value_count(data, label)  # before parsing: the memory bound (docs/limits.md)
    with collector_paused():
        conversation, by_orjson = _parse(data, label, chosen)
    # orjson refuses lone surrogates: only text the standard parser read can hold one
    if not by_orjson and might_hold_surrogates(data):
        conversation = without_lone_surrogates(conversation)
    return conversation


def load_run(path: str | Path, key: RunKey, name: str | None = None) -> Conversation:
    """Run `key` of an evaluation output file (or session `key` of a file of several, read by its format),
    as a conversation of its own; `name` labels it in messages. ConversationError when the line no longer
    holds that run, or the run cannot be read."""
    listed = find(key.format) if key.format else None
    if listed is not None and listed.load_session is not None:
        with collector_paused():
            return listed.load_session(Path(path), key, name or Path(path).name)
    data, label = read_source(path, name)
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


def sessions_in(path: str | Path, name: str | None = None) -> tuple[RunKey, ...]:
    """The sessions of a file that holds two or more (runs_in), () for a file of one session. `name`: the
    name the file came under when its path does not carry it (an upload kept under its content's hash)."""
    return runs_in(Path(path), name)


def _parse(data: bytes, label: str, chosen) -> tuple[Conversation, bool]:
    """The conversation, and whether orjson parsed all of it (one document)."""
    text_format = chosen if chosen is not None and chosen.load_text is not None else None
    as_text = data[:TEXT_HEAD].lstrip()[:1] not in (b"{", b"[")
    if text_format is None and chosen is None and as_text:
        text_format = _text_format(data)
    if text_format is not None:
        return text_format.load_text(decode_utf8(data, label), label), False
    if chosen is not None and chosen.load_document is None:  # a lines format: even one line is a log
        return chosen.load_lines(read_lines(data, label)), False
    try:
        document = parse_document(data, label)
    except ConversationError:
        if chosen is not None or not as_text or not_text(data):
            raise
        start = decode_utf8(data[:TEXT_HEAD], label).lstrip()[:40].split("\n")[0]
        raise unknown(label, f"not valid JSON, nor a text log the lab reads (it starts {start!r})") from None
    if document is None:  # JSON lines
        lines = read_lines(data, label)
        found = chosen or detect_lines(lines.objects)
        if found.load_lines is None:
            raise ConversationError(f"the {found.name} format is one JSON document, not JSON lines", where=label)
        read = found.load_lines
        return guarded(lambda: read(lines), found, chosen is None and found.lines_rank == CATCH_ALL,
                       keys_of(value for _, value in lines.objects), "JSON lines", label), False
    found = chosen or detect_document(document.value)
    if found.load_document is not None:
        load = found.load_document
        return guarded(lambda: load(document.value, label), found,
                       chosen is None and found.document_rank == CATCH_ALL, document_keys(document.value),
                       f"a JSON {'list' if isinstance(document.value, list) else 'document'}", label), \
            document.by_orjson
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
