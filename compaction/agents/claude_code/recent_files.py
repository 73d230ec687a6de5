"""The files Claude Code re-reads after a compaction, as a log shows them: the ones read or edited most
recently, newest first, with what re-reading each would give as far as the log says (its latest Read
result, a Write's content, an Edit applied to what was read before).

Claude Code keeps the files it read or edited (its readFileState, by time) and after a compaction
re-attaches the newest few, leaving out its plan file (the one the session wrote under .claude/plans: a
plan only read comes back as a file, as one 2.1.121 log shows) and the memory files it loads itself
(the auto-memory index MEMORY.md). A read that failed puts nothing there. The 2.1.92+ logs'
`file` attachments follow the log's reads and edits in this order (tests/engine/test_claude_code_after.py).
"""

import re
from dataclasses import dataclass

from compaction.importers.fields import list_at, object_at
from compaction.model.messages import Message, content_text, tool_results, tool_uses
from compaction.strategies.edits import tool_names_match

READERS = ("Read",)
WRITERS = ("Write",)
EDITORS = ("Edit", "MultiEdit", "NotebookEdit")
PATH_KEYS = ("file_path", "notebook_path", "path")
LEFT_OUT = ("memory.md",)  # the auto-memory index, re-injected with the system prompt
PLANS = "/.claude/plans/"  # where Claude Code writes the session's plan: re-attached as the plan, not a file
LINE_NUMBER_CHARS = 7  # "   123→": a Read result's number before each line
# A file whose read stopped at its limit is at least the median of the files the 2.1.92+ logs re-attach
# (their `file` attachments: about 4,900 characters): Claude Code re-reads it whole, up to its limit. The
# replay's files only: the live follower's sizes (size_after) already come out over the first call after
CUT_READ_CHARS = 4_900
_LINE_NUMBER = re.compile(r"^\s*(\d+)(?:→|\t)")  # how a Read result numbers its lines (2.0: "→", 2.1: a tab)


@dataclass(frozen=True)
class RecentFile:
    path: str
    chars: int | None  # characters re-reading it would give (line numbers included); None: not known
    text: str | None  # its latest content in the log, when the log holds it
    lines: int | None = None  # its lines, as far as the log shows them


def path_key(path: str) -> str:
    """One file however its path is written (Windows or POSIX separators, case)."""
    return path.replace("\\", "/").lower()


def _path(use: dict) -> str | None:
    given = object_at(use, "input")
    return next((given[key] for key in PATH_KEYS if isinstance(given.get(key), str) and given[key]), None)


def _numbered_chars(text: str) -> int:
    return len(text) + LINE_NUMBER_CHARS * (text.count("\n") + 1)


def _edited(chars: int | None, given: dict) -> int | None:
    """What an Edit leaves of a file of `chars` characters (its old string replaced by its new one)."""
    if chars is None:
        return None
    edits = list_at(given, "edits") if isinstance(given.get("edits"), list) else [given]
    for edit in edits:
        if isinstance(edit, dict) and isinstance(edit.get("old_string"), str) and isinstance(edit.get("new_string"), str):
            chars += _numbered_chars(edit["new_string"]) - _numbered_chars(edit["old_string"])
    return max(chars, 0)


def size_after(name: str, given: dict, result_text: str, known: int | None) -> int | None:
    """The characters re-reading a file gives after a call `name` with `given` input whose result reads
    `result_text`, the file having `known` characters before (None: not known): a Read's result (a partial
    one, with offset or limit, counts as at least that), a Write's content, an Edit applied; None for any
    other call, or an Edit of a file not sized."""
    if tool_names_match(name, READERS):
        partial = "offset" in given or "limit" in given
        return max(len(result_text), known or 0) if partial else len(result_text)
    if tool_names_match(name, WRITERS) and isinstance(given.get("content"), str):
        return _numbered_chars(given["content"])
    if tool_names_match(name, EDITORS):
        return _edited(known, given)
    return None


def _last_line(text: str, given: dict) -> int:
    """The number of the last line a partial Read returned (its own numbering, else offset + lines)."""
    lines = text.rstrip("\n").split("\n")
    found = next((m for m in (_LINE_NUMBER.match(line) for line in reversed(lines)) if m), None)
    if found:
        return int(found.group(1))
    offset = given.get("offset")
    return (offset if isinstance(offset, int) else 1) + len(lines) - 1


def _cut_at_limit(text: str, given: dict) -> bool:
    """Whether a Read stopped at its `limit` (it returned that many lines): the file goes on, how far the log
    does not say."""
    limit = given.get("limit")
    return isinstance(limit, int) and limit > 0 and text.rstrip("\n").count("\n") + 1 >= limit


def _partial_size(seen: tuple[int, int, int], text: str, given: dict) -> tuple[int, int, int]:
    """(characters, lines, last line) of a file's partial reads so far, this one added."""
    chars, lines, last = seen
    return chars + len(text), lines + text.count("\n") + 1, max(last, _last_line(text, given))


class FileReads:
    """The reads and edits of files over a session's messages, taken in one message at a time (`add`), so
    that the files to re-attach after any prefix of the session cost only the messages since the last."""

    def __init__(self):
        self.uses: dict[str, dict] = {}
        self.latest: dict[str, tuple[int, str]] = {}  # key -> (order, path as written)
        self.sizes: dict[str, int | None] = {}
        self.texts: dict[str, str | None] = {}
        self.line_counts: dict[str, int] = {}
        self.plans: set[str] = set()
        self.partial: dict[str, tuple[int, int, int]] = {}  # key -> (characters, lines, last line) of partial reads
        self.order = 0

    def add(self, message: Message) -> None:
        uses, sizes, texts, line_counts, partial = self.uses, self.sizes, self.texts, self.line_counts, self.partial
        for use in tool_uses(message):
            if isinstance(use.get("id"), str):
                uses[use["id"]] = use
        for result in tool_results(message):
            called = uses.get(str(result.get("tool_use_id")))
            path = _path(called) if called else None
            if called is None or path is None or result.get("is_error") is True:
                continue
            name, given, key = str(called.get("name", "")), object_at(called, "input"), path_key(path)
            if tool_names_match(name, READERS):
                text = content_text(result.get("content", ""))
                if "offset" in given or "limit" in given:
                    # re-reading gives the whole file: as long as the furthest line seen, at the lines' mean
                    chars, lines, last = partial[key] = _partial_size(partial.get(key, (0, 0, 0)), text, given)
                    sizes[key] = max(len(text), sizes.get(key) or 0, round(last * chars / max(lines, 1)),
                                     CUT_READ_CHARS if _cut_at_limit(text, given) else 0)
                    texts[key] = text if texts.get(key) is None else texts[key]
                    line_counts[key] = max(last, line_counts.get(key, 0))
                else:
                    sizes[key], texts[key], line_counts[key] = len(text), text, text.count("\n") + 1
                    partial.pop(key, None)
            elif tool_names_match(name, WRITERS) and isinstance(given.get("content"), str):
                sizes[key], texts[key] = _numbered_chars(given["content"]), given["content"]
                line_counts[key] = given["content"].count("\n") + 1
                partial.pop(key, None)
            elif tool_names_match(name, EDITORS):
                sizes[key] = _edited(sizes.get(key), given)
            else:
                continue
            if PLANS in key and not tool_names_match(name, READERS):
                self.plans.add(key)
            self.order += 1
            self.latest[key] = (self.order, path)

    def newest(self, limit: int = 5) -> list[RecentFile]:
        """The `limit` files Claude Code would re-attach after the messages added so far, newest first."""
        found: list[RecentFile] = []
        for key, (_, path) in sorted(self.latest.items(), key=lambda item: -item[1][0]):
            if len(found) >= limit:
                break
            if key.rsplit("/", 1)[-1] not in LEFT_OUT and key not in self.plans:
                found.append(RecentFile(path, self.sizes.get(key), self.texts.get(key), self.line_counts.get(key)))
        return found


def recent_files(messages: list[Message], limit: int = 5) -> list[RecentFile]:
    """The `limit` files Claude Code would re-attach after `messages`, newest first."""
    reads = FileReads()
    for message in messages:
        reads.add(message)
    return reads.newest(limit)
