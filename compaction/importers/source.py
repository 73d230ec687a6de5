"""Reading a conversation file safely: size bound, UTF-8 decoding, JSON / JSONL parsing, nesting bound.

Every failure becomes a ConversationError naming the file and, where it helps, the line or byte offset.
"""

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .. import limits
from ..errors import ConversationError

# The bounds live in compaction.limits (see docs/limits.md); named here too, where they are applied.
MAX_FILE_BYTES = limits.MAX_FILE_BYTES
MAX_NESTING_DEPTH = limits.MAX_NESTING_DEPTH

Source = str | Path | bytes | bytearray


def read_source(source: Source, name: str | None = None) -> tuple[bytes, str]:
    """The raw bytes of `source` and the name to use in messages about it."""
    if isinstance(source, bytes | bytearray):
        data = bytes(source)
        label = name or "<bytes>"
        _check_size(len(data), label)
        return data, label
    if not isinstance(source, str | Path):
        raise ConversationError(f"expected a file path or bytes, got {type(source).__name__}")
    path = Path(source)
    label = name or path.name
    try:
        _check_size(path.stat().st_size, label)
        return path.read_bytes(), label
    except FileNotFoundError:
        raise ConversationError("no such file", where=str(path)) from None
    except IsADirectoryError:
        raise ConversationError("is a directory, not a file", where=str(path)) from None
    except OSError as exc:
        raise ConversationError(f"cannot read the file: {exc.strerror or exc}", where=str(path)) from None


def _check_size(size: int, label: str) -> None:
    if size > MAX_FILE_BYTES:
        raise ConversationError(
            f"file is {limits.megabytes(size)}, above the maximum of {limits.megabytes(MAX_FILE_BYTES)}",
            where=label)


def decode(data: bytes, label: str) -> str:
    """UTF-8 text of `data` (a leading BOM is dropped); invalid bytes are reported by offset and line."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ConversationError(
            f"not valid UTF-8: byte 0x{data[exc.start]:02x} at byte offset {exc.start} (line {line})",
            where=label) from None
    if not text.strip():
        raise ConversationError("the file is empty", where=label)
    return text


def too_deep(value: Any, limit: int = MAX_NESTING_DEPTH) -> bool:
    """Whether containers nest deeper than `limit`; iterative, so it cannot overflow the stack itself."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        for child in children:
            if isinstance(child, dict | list):
                stack.append((child, depth + 1))
    return False


def _depth_error(where: str) -> ConversationError:
    return ConversationError(f"nested deeper than the maximum of {MAX_NESTING_DEPTH} levels", where=where)


def _number_error(exc: ValueError, where: str) -> ConversationError:
    # json raises a plain ValueError (not JSONDecodeError) for an integer longer than Python converts
    return ConversationError(
        f"not valid JSON: a number has more than {sys.get_int_max_str_digits():,} digits", where=where)


def parse_json(text: str, label: str) -> Any:
    """The JSON value of a whole file."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise _depth_error(label) from None
    except json.JSONDecodeError as exc:
        raise ConversationError(
            f"not valid JSON: line {exc.lineno}, column {exc.colno}: {json_problem(exc)}", where=label) from None
    except ValueError as exc:
        raise _number_error(exc, label) from None
    if too_deep(value):
        raise _depth_error(label)
    return value


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


def looks_like_jsonl(text: str) -> bool:
    """True when the text starts with one JSON value followed by more on later lines."""
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        # json stops after the first value and reports "Extra data": cheap even for a huge file.
        return exc.msg == "Extra data"
    except (RecursionError, ValueError):
        return False
    return False


def jsonl_objects(text: str, label: str) -> Iterator[tuple[int, dict]]:
    """(line number, object) for each non-blank line; a line that is not a JSON object is an error."""
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{label}: line {number}"
        try:
            value = json.loads(line)
        except RecursionError:
            raise _depth_error(where) from None
        except json.JSONDecodeError as exc:
            raise ConversationError(f"not valid JSON (column {exc.colno}): {json_problem(exc)}", where=where) from None
        except ValueError as exc:
            raise _number_error(exc, where) from None
        if not isinstance(value, dict):
            raise ConversationError(f"expected a JSON object, got {kind_of(value)}", where=where)
        if too_deep(value):
            raise _depth_error(where)
        yield number, value


def kind_of(value: Any) -> str:
    """How a JSON value is named in error messages."""
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")

