"""Writing conversations as Claude Code session JSONL, the way Claude Code lays them out.

Used for the sample file, the loader benchmark and `generate --format claude-code`. It writes what the
importer has to undo: one assistant line per content block sharing `message.id`, one user line per
tool result with a top-level `toolUseResult`, a parentUuid chain that rewinds can branch, sidechain
lines, compact boundaries. Deterministic for a seed (uuids and timestamps are drawn, not taken).
"""

import json
import random
import uuid
from datetime import UTC, datetime, timedelta

from ..messages import content_text

VERSION = "1.0.98"  # the Claude Code version written into each line, as real files carry one


class ClaudeCodeLog:
    def __init__(self, seed: int = 0, session_id: str | None = None, cwd: str = "/home/dev/project",
                 start: datetime = datetime(2025, 3, 14, 9, 0, tzinfo=UTC)):
        self.rng = random.Random(seed)
        self.session_id = session_id or self._uuid()
        self.cwd = cwd
        self.clock = start
        self.lines: list[dict] = []
        self.head: str | None = None  # uuid of the line the next line continues
        self.message_count = 0

    def _uuid(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def _line(self, line_type: str, parent: str | None, sidechain: bool = False, **fields) -> dict:
        self.clock += timedelta(seconds=self.rng.randint(1, 20))
        line = {"parentUuid": parent, "isSidechain": sidechain, "userType": "external", "cwd": self.cwd,
                "sessionId": self.session_id, "version": VERSION, "gitBranch": "main", "type": line_type,
                **fields, "uuid": self._uuid(), "timestamp": self.clock.isoformat().replace("+00:00", "Z")}
        self.lines.append(line)
        if not sidechain:
            self.head = line["uuid"]
        return line

    def user(self, content, parent: str | None = "head", sidechain: bool = False, **fields) -> str:
        """One user line; `parent="head"` continues the current branch, another uuid branches off it."""
        parent = self.head if parent == "head" else parent
        return self._line("user", parent, sidechain, message={"role": "user", "content": content},
                          **fields)["uuid"]

    def assistant(self, blocks: list[dict], parent: str | None = "head", sidechain: bool = False) -> str:
        """One API response written as one line per block, chained, all sharing one message.id."""
        parent = self.head if parent == "head" else parent
        self.message_count += 1
        message_id = f"msg_01{self.rng.getrandbits(80):020x}"
        for block in blocks:
            message = {"id": message_id, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                       "content": [block], "stop_reason": None,
                       "usage": {"input_tokens": 4, "output_tokens": self.rng.randint(20, 400)}}
            parent = self._line("assistant", parent, sidechain, message=message,
                                requestId=f"req_01{self.rng.getrandbits(64):016x}")["uuid"]
        return parent

    def tool_results(self, results: list[dict], parent: str | None = "head", sidechain: bool = False) -> str:
        """One user line per tool_result, each with the `toolUseResult` Claude Code adds beside it."""
        for result in results:
            text = content_text(result.get("content"))
            parent = self.user([result], parent, sidechain, toolUseResult={
                "stdout": text, "stderr": "", "interrupted": False, "isImage": False})
        return parent

    def messages(self, messages: list[dict]) -> None:
        """A whole Anthropic-form conversation on the current branch."""
        for message in messages:
            content = message["content"]
            if message["role"] == "assistant":
                self.assistant(content if isinstance(content, list) else [{"type": "text", "text": content}])
            elif isinstance(content, list) and content and all(b.get("type") == "tool_result" for b in content):
                self.tool_results(content)
            else:
                self.user(content)

    def compact_boundary(self, trigger: str, pre_tokens: int, summary: str) -> str:
        """The boundary line (a new root pointing back by logicalParentUuid) and the summary user line."""
        logical_parent = self.head
        self._line("system", None, subtype="compact_boundary", content="Conversation compacted",
                   isMeta=False, level="info", logicalParentUuid=logical_parent,
                   compactMetadata={"trigger": trigger, "preTokens": pre_tokens})
        return self.user(summary, isCompactSummary=True, isVisibleInTranscriptOnly=True)

    def other(self, line_type: str, **fields) -> None:
        """A line outside the conversation (file-history-snapshot, summary, ...), not in the tree."""
        self.lines.append({"type": line_type, **fields})

    def jsonl(self) -> str:
        return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in self.lines)
