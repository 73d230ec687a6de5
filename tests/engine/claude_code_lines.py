"""Claude Code log lines written the way the public logs write them (one line per content block, usage on
assistant lines, tool results as user lines with toolUseResult, compact_boundary then isCompactSummary,
attachment lines), for tests that need a log too long to write out by hand."""

import json
from pathlib import Path


class LogLines:
    def __init__(self, version: str, model: str = "claude-opus-4-5-20251101"):
        self.version, self.model = version, model
        self.lines: list[dict] = []
        self.parent: str | None = None
        self.minute = 0

    def _add(self, line: dict) -> dict:
        self.minute += 1
        line = {"parentUuid": self.parent, "isSidechain": False, "userType": "external", "cwd": "/home/dev/app",
                "sessionId": "s-1", "version": self.version,
                "timestamp": f"2026-01-05T{10 + self.minute // 60:02d}:{self.minute % 60:02d}:00.000Z",
                "uuid": f"u{len(self.lines)}", **line}
        self.lines.append(line)
        self.parent = line["uuid"]
        return line

    def prompt(self, text: str) -> None:
        self._add({"type": "user", "message": {"role": "user", "content": text}})

    def call(self, context: int, name: str, tool_input: dict, output: str, output_tokens: int = 120) -> None:
        """A response that calls one tool, recording `context` tokens read, and the tool's result."""
        number = len(self.lines)
        usage = {"input_tokens": 3, "cache_creation_input_tokens": 400, "cache_read_input_tokens": context - 403,
                 "output_tokens": output_tokens, "service_tier": "standard"}
        self._add({"type": "assistant", "requestId": f"req_{number}", "message": {
            "model": self.model, "id": f"msg_{number}", "type": "message", "role": "assistant",
            "content": [{"type": "tool_use", "id": f"toolu_{number}", "name": name, "input": tool_input}],
            "stop_reason": "tool_use", "stop_sequence": None, "usage": usage}})
        self._add({"type": "user", "message": {"role": "user", "content": [
            {"tool_use_id": f"toolu_{number}", "type": "tool_result", "content": output}]},
            "toolUseResult": {"stdout": output, "stderr": "", "interrupted": False, "isImage": False}})

    def answer(self, context: int, text: str = "Done.") -> None:
        number = len(self.lines)
        self._add({"type": "assistant", "requestId": f"req_{number}", "message": {
            "model": self.model, "id": f"msg_{number}", "type": "message", "role": "assistant",
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": 3, "cache_creation_input_tokens": 400, "cache_read_input_tokens": context - 403,
                      "output_tokens": 40}}})

    def compaction(self, pre_tokens: int, summary: str, attachments: tuple[dict, ...] = ()) -> None:
        boundary = self._add({"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted",
                              "isMeta": False, "level": "info", "logicalParentUuid": self.parent,
                              "compactMetadata": {"trigger": "auto", "preTokens": pre_tokens}})
        boundary["parentUuid"] = None
        self._add({"type": "user", "isCompactSummary": True, "isVisibleInTranscriptOnly": True, "message": {
            "role": "user", "content": "This session is being continued from a previous conversation that ran out of "
            "context. The summary below covers the earlier portion of the conversation.\n\n" + summary}})
        for attachment in attachments:
            self._add({"type": "attachment", "attachment": attachment})

    def write(self, folder: Path, name: str = "session.jsonl") -> Path:
        path = folder / name
        path.write_text("".join(json.dumps(line) + "\n" for line in self.lines), encoding="utf-8")
        return path
