"""Claude Code's session log (`~/.claude/projects/<dir>/<session>.jsonl`) line by line, as it is written.

Every API call is an assistant response with its `usage`; one response is written over several lines
(one content block each) sharing `message.id` (or `requestId`), the last of them with the final output
count, and the results of its tool calls may be written between them. So a call is the first line of a
new id, and the later lines of that id update it. Lines with no id are grouped as the importer groups
them: one response while no other line of the conversation comes between them. The calls are counted in the order they were made,
whichever branch of the session tree they are on: a rewound branch was paid for too. Left out, as the
importer leaves them: subagent lines inside the file (`isSidechain`; in a subagent's own file, whose
first message is a sidechain, they are the session), and `<synthetic>` responses, which Claude Code
writes itself without calling the model. A `microcompact_boundary` (old tool results cleared) is said.

A compaction is the `system` line of subtype `compact_boundary` (`compactMetadata`: trigger, preTokens,
and postTokens from 2.1.111), followed by the user line `isCompactSummary` holding the summary.
"""

from collections import deque
from typing import Any

from compaction.agents.claude_code.log.records import KNOWN_OTHER_TYPES
from compaction.importers.checks import only_tool_results
from compaction.importers.fields import object_at
from compaction.importers.usage import from_anthropic
from compaction.live.events import (
    CallGrew,
    CallSeen,
    CompactionSeen,
    Event,
    Fact,
    FileRead,
    Note,
    SummarySeen,
    Written,
)
from compaction.model.messages import content_chars

FORMAT = "claude-code"
MESSAGE_TYPES = ("user", "assistant")
RECENT_IDS = 8  # a response's lines come before the next response's: a few ids suffice to tell them apart
FILE_TOOLS = ("Read", "Write", "Edit", "MultiEdit")  # the calls whose files Claude Code may attach again


def looks_like(value: dict) -> bool:
    """A line Claude Code writes: a type it writes (a log often opens on a file-history-snapshot), or a
    typed line of its session tree."""
    kind = value.get("type")
    return isinstance(kind, str) and "role" not in value and (
        kind in MESSAGE_TYPES or kind in KNOWN_OTHER_TYPES
        or any(key in value for key in ("uuid", "sessionId", "leafUuid")))


def _number(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


class ClaudeCodeLines:
    def __init__(self):
        self._recent: deque[str] = deque(maxlen=RECENT_IDS)
        self._version: str | None = None
        self._session: str | None = None
        self._subagent: bool | None = None  # decided by the first message line
        self._after_response = False  # the last message line was a response's: a line with no id goes on with it
        self._open_key: str | None = None  # the id of the response being written
        self._calls = 0
        self._reads: dict[str, tuple] = {}  # file calls waiting for their result: id -> (path, tool, chars written)
        self._sizes: dict[str, int] = {}  # the characters of each file as last read or written

    def read(self, number: int, line: dict) -> list[Event]:
        if self._subagent is None and line.get("type") in MESSAGE_TYPES:
            # a file whose first message is a sidechain is a subagent's own session: its lines are the session
            self._subagent = line.get("isSidechain") is True
        if line.get("isSidechain") is True and not self._subagent:
            return []
        found: list[Event] = self._facts(line)
        kind = line.get("type")
        time = line.get("timestamp") if isinstance(line.get("timestamp"), str) else None
        message = line.get("message") if isinstance(line.get("message"), dict) else None
        if kind == "system" and line.get("subtype") == "compact_boundary":
            info = object_at(line, "compactMetadata")
            trigger = info.get("trigger") if isinstance(info.get("trigger"), str) else None
            found.append(CompactionSeen(number, trigger, _number(info.get("preTokens")),
                                        _number(info.get("postTokens")), time))
            self._after_response = False  # the history starts afresh
        elif kind == "system" and line.get("subtype") == "microcompact_boundary":
            info = object_at(line, "microcompactMetadata")
            saved = _number(info.get("tokensSaved"))
            found.append(Note(number, "Claude Code cleared old tool results here (microcompact"
                              + (f", {saved:,} tokens saved)" if saved else ")"), "microcompact"))
        elif kind == "user" and message is not None:
            self._after_response = False  # a line of the person or of results: the response is over
            content = message.get("content")
            if line.get("isCompactSummary") is True:
                found.append(SummarySeen(content_chars(content)))
            else:
                found.append(Written(content_chars(content), person=not only_tool_results(content)))
                found.extend(self._files_read(content))
        elif kind == "assistant" and message is not None:
            self._reads_asked(message.get("content"))
            found.extend(self._response(number, line, message, time))
        return found

    def _reads_asked(self, content: Any) -> None:
        """The calls of a response that read or change a file, by id, until their results come (Claude Code
        attaches the files read or edited last again after a compaction)."""
        for block in content if isinstance(content, list) else ():
            if not (isinstance(block, dict) and block.get("type") == "tool_use" and block.get("name") in FILE_TOOLS):
                continue
            asked_input = block.get("input")
            given = asked_input if isinstance(asked_input, dict) else {}
            path = given.get("file_path")
            if isinstance(path, str) and isinstance(block.get("id"), str):
                # a Write's file is what it wrote; an Edit's, the file as last read (its result is a snippet)
                written = len(given["content"]) if block["name"] == "Write" and isinstance(given.get("content"), str) \
                    else None
                self._reads[block["id"]] = (path, block["name"], written)
                while len(self._reads) > RECENT_IDS * 4:
                    self._reads.pop(next(iter(self._reads)))

    def _files_read(self, content: Any) -> list[Event]:
        found: list[Event] = []
        for block in content if isinstance(content, list) else ():
            if isinstance(block, dict) and block.get("type") == "tool_result" and not block.get("is_error"):
                asked = self._reads.pop(str(block.get("tool_use_id")), None)
                if asked is None:
                    continue
                path, tool, written = asked
                chars = content_chars(block.get("content", "")) if tool == "Read" else written
                if chars is None:
                    chars = self._sizes.get(path)
                if chars is not None:
                    self._sizes[path] = chars
                    while len(self._sizes) > RECENT_IDS * 16:
                        self._sizes.pop(next(iter(self._sizes)))
                    found.append(FileRead(path, chars))
        return found

    def _response(self, number: int, line: dict, message: dict, time: str | None) -> list[Event]:
        usage = from_anthropic(message.get("usage"), message.get("model"))
        key = message.get("id") if isinstance(message.get("id"), str) and message["id"] else None
        key = key or (line.get("requestId") if isinstance(line.get("requestId"), str) else None)
        # as the importer groups them (log/assemble.py): lines with no id are one response while nothing
        # else comes between them
        same = self._after_response and (key is None or self._open_key is None or key == self._open_key)
        self._after_response = True
        if usage is None:  # no usage, all zero, or <synthetic>: no model call
            return []
        if key is not None and key in self._recent:
            self._open_key = key
            return [CallGrew(usage)] if key == self._recent[-1] else []
        if key is not None:
            self._recent.append(key)
            self._open_key = key
        if same and self._calls:
            return [CallGrew(usage)]
        self._open_key = key
        self._calls += 1
        return [CallSeen(number, usage, time)]

    def _facts(self, line: dict) -> list[Event]:
        found: list[Event] = []
        version = line.get("version")
        if isinstance(version, str) and version and version != self._version:
            self._version = version  # the newest: a resumed session may change version
            found.append(Fact("version", version))
        session = line.get("sessionId")
        if self._session is None and isinstance(session, str) and session:
            self._session = session
            found.append(Fact("session_id", session))
        return found
