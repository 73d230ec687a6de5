"""Reading a conversation file safely: size bound, one parse of the bytes, nesting bound, clear errors.

The bytes are parsed once, by orjson. The standard parser runs only where orjson refuses what JSON
allows (lone surrogates such as "\\ud800", integers past 64 bits) and to word an error (line, column).
Every failure becomes a ConversationError naming the file and, where it helps, the line or byte offset.
"""

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from compaction.errors import ConversationError
from compaction.importers import limits

# The bounds live in compaction.importers.limits (see docs/limits.md); named here too, where they are applied.
MAX_FILE_BYTES = limits.MAX_FILE_BYTES
MAX_NESTING_DEPTH = limits.MAX_NESTING_DEPTH

Source = str | Path | bytes | bytearray
_BOM = b"\xef\xbb\xbf"
# json's messages that end on "at", waiting for the position it appends in str(exc)
_DANGLING = {
    "Unterminated string starting at": "a string starts here and is never closed with a quote",
    "Invalid control character at": "a control character (such as a raw line break or tab) inside a string",
}


def json_problem(exc: json.JSONDecodeError) -> str:
    """json's own message as a whole phrase, and a hint when the text ends before the JSON does."""
    problem = _DANGLING.get(exc.msg, exc.msg)
    cut_off = exc.msg == "Unterminated string starting at" or not exc.doc[exc.pos:].strip()
    return f"{problem}; the text ends before the JSON is complete (was the file cut off?)" if cut_off else problem


def read_source(source: Source, name: str | None = None) -> tuple[bytes, str]:
    """The raw bytes of `source` (a leading UTF-8 BOM dropped) and the name to use in messages."""
    if isinstance(source, bytes | bytearray):
        data = bytes(source)
        label = name or "<bytes>"
        _check_size(len(data), label)
    elif isinstance(source, str | Path):
        path = Path(source)
        label = name or path.name
        try:
            _check_size(path.stat().st_size, label)
            data = path.read_bytes()
        except FileNotFoundError:
            raise ConversationError("no such file", where=str(path)) from None
        except IsADirectoryError:
            raise ConversationError("is a directory, not a file", where=str(path)) from None
        except OSError as exc:
            raise ConversationError(f"cannot read the file: {exc.strerror or exc}", where=str(path)) from None
    else:
        raise ConversationError(f"expected a file path or bytes, got {type(source).__name__}")
    if data.startswith(_BOM):
        data = data[len(_BOM):]
    if not data or data.isspace():  # neither copies the bytes, unlike strip()
        raise ConversationError("the file is empty", where=label)
    return data, label


def _check_size(size: int, label: str) -> None:
    if size > MAX_FILE_BYTES:
        raise ConversationError(
            f"file is {limits.megabytes(size)}, above the maximum of {limits.megabytes(MAX_FILE_BYTES)}",
            where=label)


NOT_TEXT = "this is not a text log: is it the right file?"
_HEAD_BYTES = 4_096  # what a binary file shows at once: a NUL, or bytes that are not text at all
_NOT_TEXT_SHARE = 0.05  # of the head's characters not UTF-8: an image, an archive, a database


def not_text(data: bytes) -> bool:
    """Whether `data` is no text at all (a .zip, a .gz, a picture, a UTF-16 file): a NUL in its head, or
    a head of which more than 5 % is not UTF-8. One stray byte in a log is not that."""
    head = data[:_HEAD_BYTES]
    if b"\x00" in head:
        return True
    decoded = head.decode("utf-8", errors="replace")
    return decoded.count("\ufffd") > max(1, _NOT_TEXT_SHARE * len(decoded))


def decode_utf8(data: bytes, label: str) -> str:
    """The text of `data`; else a ConversationError saying it is no text at all, or naming the first byte
    that is not UTF-8 (offset, line)."""
    if not_text(data):
        raise ConversationError(f"{NOT_TEXT} (it starts with the bytes {data[:4].hex(' ')}, not text)",
                                where=label)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ConversationError(
            f"not valid UTF-8: byte 0x{data[exc.start]:02x} at byte offset {exc.start} (line {line})",
            where=label) from None


def too_deep(value: Any, limit: int = MAX_NESTING_DEPTH) -> bool:
    """Whether containers nest deeper than `limit`. One level at a time, the inner loop at C speed:
    only containers are carried to the next level, so strings and numbers cost one type check each."""
    level = [value] if isinstance(value, dict | list) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        children = []
        for item in level:
            values = item.values() if type(item) is dict else item
            children.extend([child for child in values if type(child) is dict or type(child) is list])
        level = children
    return False


def depth_error(where: str) -> ConversationError:
    return ConversationError(f"nested deeper than the maximum of {MAX_NESTING_DEPTH} levels", where=where)


def _standard_parse(data: bytes, where: str) -> Any:
    """The standard parser's value of `data`; its failure worded for a person."""
    text = decode_utf8(data, where)
    try:

        return json.loads(text)
    except RecursionError:
        raise depth_error(where) from None
    except json.JSONDecodeError as exc:
        raise ConversationError(f"not valid JSON: line {exc.lineno}, column {exc.colno}: {json_problem(exc)}",
                                where=where) from None
    except ValueError:
        # an integer longer than Python converts: a plain ValueError, not JSONDecodeError
        raise ConversationError(
            f"not valid JSON: a number has more than {sys.get_int_max_str_digits():,} digits", where=where) from None


@dataclass(frozen=True)
class Document:
    """A file that is one JSON value."""

    value: Any
    by_orjson: bool = True  # False: the standard parser read it (NaN, lone surrogates, huge numbers)


def parse_document(data: bytes, label: str) -> "Document | None":
    """The file as one JSON value, or None when it is JSON lines: its first line that is not blank or
    a // comment is a JSON object of its own, and the whole is not one value (more follows it, or a
    line is cut off). Errors of a whole document raise. The nesting bound is not checked here: each
    importer checks what it keeps (checks.check_message), so the parts a file carries beside the
    conversation (copies, metadata) are never walked."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        if _first_line_is_object(data):
            return None
        if "depth" in exc.msg:
            raise depth_error(label) from None
        # orjson refuses some of what JSON allows (NaN, lone surrogates "\ud800", huge numbers): the
        # standard parser reads those, and words the errors of the rest with line and column
        return Document(_standard_parse(data, label), by_orjson=False)
    # orjson refuses more than 1,024 levels; the tighter bound is checked on what the importers keep
    return Document(value)


def _first_line_is_object(data: bytes, lines: int = 50) -> bool:
    start = 0
    for _ in range(lines):
        end = data.find(b"\n", start)
        line = data[start:end if end >= 0 else len(data)].strip()  # one line copied, never the rest
        start = end + 1
        # `//` notes on top of copied logs, and plain-text lines a CLI prints before its JSON events
        # (such as "Loaded cached credentials."), are passed over on the way to the first object
        if line and not line.startswith(b"//") and not line[:1].isalpha():
            if not (line.startswith(b"{") and line.endswith(b"}")):
                return False
            try:
                return isinstance(loads_line(line), dict)
            except (ValueError, RecursionError):
                return False
        if end < 0:
            break
    return False


def loads_line(line: bytes) -> Any:
    """One JSON text by orjson, or by the standard parser where only it accepts the text (NaN, lone
    surrogates, huge numbers); ValueError (or RecursionError) when neither does."""
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError as exc:
        if "depth" in exc.msg:
            raise RecursionError(exc.msg) from None
    return json.loads(line.decode("utf-8"))


def kind_of(value: Any) -> str:
    """How a JSON value is named in error messages."""
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")
