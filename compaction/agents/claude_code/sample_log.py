"""Writing conversations as Claude Code session JSONL, in the layout real logs have.

Used for the samples, the loader benchmark and `generate --format claude-code`. What it writes
(as observed in public logs of Claude Code 2.1; hand-written examples: tests/importers/cases/valid):
- one assistant line per content block, chained, all sharing `message.id` and `requestId` (or none of
  them, with `ids=False`, as re-exported logs have); `message.usage` on every line, the input and cache
  figures the same on each, `output_tokens` a placeholder until the response's last line;
- one user line per tool result, in the order the tools finished (not the order of the calls), each
  hanging off the line of its own tool_use and naming it in `sourceToolAssistantUUID`, with the
  `toolUseResult` Claude Code adds; the next response hangs off the last result written;
- sidechain lines, rewinds (`parent=` another line), compaction boundaries with `preTokens`.
Usage follows a real session: every call sends a system prompt and tools the log does not hold
(`overhead_tokens`), reads from the cache what the previous call sent and writes the rest.
Deterministic for a seed (uuids, timestamps, completion order and token counts are drawn, not taken).
"""

import json
import math
import random
import uuid
from datetime import UTC, datetime, timedelta

from compaction.agents.claude_code.preset import auto_compact_threshold
from compaction.model.messages import content_text

VERSION = "2.1.39"  # the Claude Code version written into each line, as real files carry one
CHARS_PER_TOKEN = 3.6  # how the generated "tokenizer" weighs JSON text: not the project's chars / 4


class ClaudeCodeLog:
    def __init__(self, seed: int = 0, session_id: str | None = None, cwd: str = "/home/dev/project",
                 start: datetime = datetime(2025, 3, 14, 9, 0, tzinfo=UTC), ids: bool = True,
                 overhead_tokens: int = 17_800):
        self.rng = random.Random(seed)
        self.session_id = session_id or self._uuid()
        self.cwd = cwd
        self.clock = start
        self.ids = ids
        self.lines: list[dict] = []
        self.head: str | None = None  # uuid of the line the next line continues
        self.message_count = 0
        self.overhead_tokens = overhead_tokens
        self.context_tokens = 0  # tokens of the conversation the next call sends, system prompt aside
        self.cached_tokens = 0  # what the previous call sent: read from the cache by the next one
        self.block_lines: dict[str, str] = {}  # tool_use id -> uuid of its line, for the results

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

    def _count(self, content) -> int:
        """The generated tokenizer: JSON characters / 3.6 plus a few tokens of framing, +-3 %."""
        chars = len(json.dumps(content, ensure_ascii=False))
        return math.ceil(chars / CHARS_PER_TOKEN * self.rng.uniform(0.97, 1.03)) + 4

    def user(self, content, parent: str | None = "head", sidechain: bool = False, **fields) -> str:
        """One user line; `parent="head"` continues the current branch, another uuid branches off it."""
        parent = self.head if parent == "head" else parent
        if not sidechain:
            self.context_tokens += self._count(content)
        return self._line("user", parent, sidechain, message={"role": "user", "content": content},
                          **fields)["uuid"]

    def _usage(self, blocks: list[dict], sidechain: bool) -> tuple[dict, int]:
        """The usage of a call sending the context so far, and its final output tokens."""
        output = sum(self._count(block) for block in blocks)
        if sidechain:
            return {"input_tokens": 3, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
                    "output_tokens": output}, output
        sent = self.overhead_tokens + self.context_tokens
        fresh = self.rng.randint(1, 9)  # the newest few tokens are sent uncached, as Claude Code does
        read = min(self.cached_tokens, sent - fresh) if self.cached_tokens else self.overhead_tokens
        written = sent - fresh - read
        self.cached_tokens = sent
        self.context_tokens += output
        return {"input_tokens": fresh, "cache_creation_input_tokens": written, "cache_read_input_tokens": read,
                "cache_creation": {"ephemeral_5m_input_tokens": written, "ephemeral_1h_input_tokens": 0},
                "output_tokens": output, "service_tier": "standard"}, output

    def assistant(self, blocks: list[dict], parent: str | None = "head", sidechain: bool = False) -> str | None:
        """One API response written as one line per block, chained, all sharing one message.id."""
        parent = self.head if parent == "head" else parent
        self.message_count += 1
        message_id = f"msg_01{self.rng.getrandbits(80):020x}"
        request_id = f"req_01{self.rng.getrandbits(64):016x}"
        usage, output = self._usage(blocks, sidechain)
        if not sidechain:
            self.block_lines = {}
        for position, block in enumerate(blocks):
            last = position == len(blocks) - 1
            message = {"id": message_id, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                       "content": [block], "stop_reason": None,
                       "usage": {**usage, "output_tokens": output if last else self.rng.randint(1, 12)}}
            fields = {"requestId": request_id} if self.ids else {}
            if not self.ids:
                del message["id"]
            parent = self._line("assistant", parent, sidechain, message=message, **fields)["uuid"]
            if block.get("type") == "tool_use" and not sidechain:
                self.block_lines[block["id"]] = parent
        return parent

    def tool_results(self, results: list[dict], parent: str | None = "head",
                     sidechain: bool = False) -> str | None:
        """One user line per tool_result, in the order the tools finished, each hanging off the line of
        its own tool_use (`parent` when the call is not from the last response written)."""
        order = list(results)
        self.rng.shuffle(order)  # parallel tools finish in any order
        for result in order:
            text = content_text(result.get("content"))
            own = self.block_lines.get(result.get("tool_use_id", ""))
            anchor = own or (self.head if parent == "head" else parent)
            fields = {"sourceToolAssistantUUID": own} if own else {}
            self.user([result], anchor, sidechain, toolUseResult={
                "stdout": text, "stderr": "", "interrupted": False, "isImage": False}, **fields)
        return self.head

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

    def session(self, messages: list[dict], window: int = 200_000) -> None:
        """A whole conversation as Claude Code of this log's version would have written it with a `window`
        -token model: before a call whose request would reach its auto-compact threshold, the log records
        a compaction (boundary, summary) and the call sends the summary instead, so no call records more
        than the window."""
        threshold = auto_compact_threshold(VERSION, window)
        for position, message in enumerate(messages):
            self.messages([message])
            following = messages[position + 1] if position + 1 < len(messages) else None
            pre = self.overhead_tokens + self.context_tokens
            if following is not None and following["role"] == "assistant" and message["role"] == "user" \
                    and pre >= threshold:  # Claude Code checks before every call, tool results included
                self.compact_boundary("auto", pre, _summary_of(messages[0], position))

    def mark(self) -> tuple:
        """Where the branch stands now, to come back to with `rewind` (the person rewinds the session)."""
        return self.head, self.context_tokens, self.cached_tokens

    def rewind(self, mark: tuple) -> None:
        """Continue from `mark`: the lines written since are an abandoned branch the model no longer sees."""
        self.head, self.context_tokens, self.cached_tokens = mark

    def compact_boundary(self, trigger: str, pre_tokens: int, summary: str) -> str:
        """The boundary line (a new root pointing back by logicalParentUuid) and the summary user line;
        the next call sends only the summary (and the system prompt, still cached)."""
        logical_parent = self.head
        self._line("system", None, subtype="compact_boundary", content="Conversation compacted",
                   isMeta=False, level="info", logicalParentUuid=logical_parent,
                   compactMetadata={"trigger": trigger, "preTokens": pre_tokens})
        self.context_tokens = 0
        self.cached_tokens = self.overhead_tokens
        return self.user(summary, isCompactSummary=True, isVisibleInTranscriptOnly=True)

    def other(self, line_type: str, **fields) -> None:
        """A line outside the conversation (file-history-snapshot, summary, ...), not in the tree."""
        self.lines.append({"type": line_type, **fields})

    def jsonl(self) -> str:
        return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in self.lines)


def _summary_of(first: dict, position: int) -> str:
    return ("This session is being continued from a previous conversation that ran out of context. "
            f"Summary: {content_text(first['content'])[:300]} Work so far: {position // 2} turns of reading, "
            "searching, editing and running the tests; the remaining failures are listed in the last test run.")
