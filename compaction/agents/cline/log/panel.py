"""A task's ui_messages.json (what the panel showed) as messages, one model call per `api_req_started`.

Rows are `{ts, type: "say"|"ask", say|ask, text, ...}`. Each request row opens a call: the person's turn
is the row's `request` (Cline keeps what it sent: the tool's result, the feedback, the environment
details), else the panel's task and feedback since the call before (Roo Code and Kilo Code keep no
`request`). The reply is what the panel showed until the next request: the model's text, and its tool
calls (`say: "tool"` / `ask: "tool"` JSON, commands, follow-up questions) as tool_use blocks; a tool
call's result is the next turn's `[tool for '...'] Result:` text, read as its tool_result. Thinking
(`reasoning`) is not resent by these extensions and is left out.

The log's own compactions (each at the person's turn of the first call that no longer carried the
dropped messages):
- Cline: a change of `conversationHistoryDeletedRange` [start, end] (the API history's messages it no
  longer sends), written on each row from the one after the request it took effect for; with a
  `summarizeTask` tool row before it (its auto-condense, `summarize_task`) it is a summary, else the
  truncation of ContextManager (half or three quarters of the messages after the first pair);
- Roo Code and Kilo Code: `say: "condense_context"` with `contextCondense` {prevContextTokens,
  newContextTokens, summary, cost} and `say: "sliding_window_truncation"` with `contextTruncation`.
"""

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from compaction.agents.cline.log.requests import Request, is_request, read_request
from compaction.agents.cline.log.usage_line import usage_line
from compaction.model.conversation import LoadWarning

TOOL_RESULT = "] Result:"  # Cline's formatResponse.toolResult heading: "[read_file for 'a.py'] Result:"
# rows that are a tool call of their own: (row type, Cline's tool, its argument when the text is no JSON)
TOOL_ROWS = {"completion_result": ("say", "attempt_completion", "result"),
             "followup": ("ask", "ask_followup_question", "question"),
             "plan_mode_respond": ("ask", "plan_mode_respond", "response")}
PERSON_SAYS = ("task", "user_feedback")
NO_RESULT = "(no result in the panel)"
SUMMARY_TOOLS = ("summarizeTask", "condense")  # Cline's summarize_task and /smol (condense) tool rows


def iso(ts: Any) -> str | None:
    if isinstance(ts, bool) or not isinstance(ts, int | float) or ts <= 0:
        return None
    try:
        return datetime.fromtimestamp(ts / 1000, UTC).isoformat().replace("+00:00", "Z")
    except (OverflowError, OSError, ValueError):
        return None


@dataclass
class Panel:
    """What the walk found."""

    messages: list[dict] = field(default_factory=list)
    usage: list[dict | None] = field(default_factory=list)
    timestamps: list[str | None] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)
    call_turns: list[int] = field(default_factory=list)  # each request's person's turn (message index)
    api_index: list[int | None] = field(default_factory=list)  # each message's index in the API history, when known
    boundaries: list[dict] = field(default_factory=list)
    warnings: list[LoadWarning] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    window: int | None = None  # "# Context Window Usage\n12,023 / 256K tokens used" in a request's text

    def count(self, key: str) -> None:
        self.counts[key] = self.counts.get(key, 0) + 1


class Walk:
    def __init__(self):
        self.out = Panel()
        self.said: list[str] = []  # the person's words since the last call (task, feedback)
        self.reply: list[dict] | None = None  # the open call's reply blocks
        self.pending: list[str] = []  # the ids of the reply's tool calls, answered by the next turn
        self.deleted: Any = None  # Cline's conversationHistoryDeletedRange as the rows carry it
        self.summary: str | None = None  # a summarizeTask tool row's summary, for the range change after it

    def read(self, position: int, row: Any) -> None:
        if not isinstance(row, dict):
            self.out.count("rows_not_objects")
            return
        kind = row.get("say") if row.get("type") == "say" else row.get("ask")
        self._range(row)
        if is_request(row):
            self._request(position, row)
        elif row.get("type") == "say" and (kind in PERSON_SAYS or kind == "text" and self.reply is None):
            # Roo Code and Kilo Code show the task as the first `text` row
            if isinstance(row.get("text"), str) and row["text"].strip():
                self.said.append(row["text"])
        elif kind in ("condense_context", "sliding_window_truncation"):
            self._roo_compaction(row, kind)
        elif self.reply is not None:
            self._reply(row, kind)

    def finish(self) -> Panel:
        self._close()
        return self.out

    def _request(self, position: int, row: dict) -> None:
        self._close()
        request, problem = read_request(position, row)
        if request is None:
            self.out.warnings.append(LoadWarning(f"row {position}: {problem}", index=len(self.out.messages),
                                                 kind="request_unread"))
            request = Request(position, None, None, None, None, None, None, None)
        turn = self._turn(request)
        self.out.call_turns.append(len(self.out.messages))
        self._append("user", turn, row.get("ts"), None)
        at = request.history_index
        self.out.api_index.append(None if at is None else at + 1)  # the person's turn follows the newest message
        self.out.requests.append(request)
        self.reply = []
        self.reply_ts = row.get("ts")
        self.said = []
        if request.text and self.out.window is None and (line := usage_line(request.text)):
            self.out.window = line[1]

    def _turn(self, request: Request) -> Any:
        text = request.text if request.text is not None else "\n\n".join(self.said)
        calls, self.pending = self.pending, []
        if not calls:
            return text or "(the panel shows no text for this turn)"
        parts = results_of(text, len(calls))
        if parts is None:  # the call was refused, or the person spoke instead
            return [*({"type": "tool_result", "tool_use_id": call, "content": NO_RESULT} for call in calls),
                    {"type": "text", "text": text or "(the panel shows no text for this turn)"}]
        return [{"type": "tool_result", "tool_use_id": call, "content": part} for call, part in zip(calls, parts,
                                                                                                   strict=True)]

    def _reply(self, row: dict, kind: Any) -> None:
        raw = row.get("text")
        text: str = raw if isinstance(raw, str) else ""
        assert self.reply is not None
        if kind == "text" and row.get("type") == "say":
            if text.strip():
                self.reply.append({"type": "text", "text": text})
        elif kind in TOOL_ROWS and row.get("type") == TOOL_ROWS[kind][0]:
            _, tool, key = TOOL_ROWS[kind]
            self._tool_use(tool, _arguments(text, key))
        elif kind == "tool":
            self._tool_row(row, text)
        elif kind == "command":  # asked for approval, or said when auto-approved: one call either way
            if not self.pending or self.reply[-1].get("input") != {"command": text}:
                self._tool_use("execute_command", {"command": text})
        elif kind == "use_mcp_server" and row.get("type") == "ask":
            self._tool_row(row, text)
        elif kind == "reasoning":
            self.out.count("reasoning_rows")

    def _tool_row(self, row: dict, text: str) -> None:
        try:
            tool = json.loads(text)
        except ValueError:
            tool = None
        if not isinstance(tool, dict):
            self.out.count("tool_rows_unread")
            return
        name: str = tool["tool"] if isinstance(tool.get("tool"), str) else "tool"
        if name in SUMMARY_TOOLS and isinstance(tool.get("content"), str):
            self.summary = tool["content"]
        if row.get("type") == "say" and name in SUMMARY_TOOLS:
            return  # the completed summary: the ask row before it was the call
        self._tool_use(name, {key: value for key, value in tool.items() if key != "tool"})

    def _tool_use(self, name: str, arguments: dict) -> None:
        assert self.reply is not None
        call = f"panel-{len(self.out.messages)}-{len(self.pending)}"
        self.pending.append(call)
        self.reply.append({"type": "tool_use", "id": call, "name": name, "input": arguments})

    def _close(self) -> None:
        if self.reply is None:
            return
        content = self.reply or [{"type": "text", "text": ""}]
        if not self.reply:
            self.out.count("calls_without_text")
        request = self.out.requests[-1]
        self._append("assistant", content, self.reply_ts, request.usage)
        self.out.api_index.append(None if request.history_index is None else request.history_index + 2)
        self.reply = None

    def _append(self, role: str, content: Any, ts: Any, usage: dict | None) -> None:
        self.out.messages.append({"role": role, "content": content})
        self.out.usage.append(usage)
        self.out.timestamps.append(iso(ts))

    def _range(self, row: dict) -> None:
        if "conversationHistoryDeletedRange" not in row and "conversationHistoryIndex" not in row:
            return
        deleted = row.get("conversationHistoryDeletedRange")
        if deleted == self.deleted:
            return
        previous, self.deleted = self.deleted, deleted
        if not self.out.requests or not (isinstance(deleted, list) and len(deleted) == 2
                                         and all(isinstance(at, int) for at in deleted)):
            return
        summary, self.summary = self.summary, None
        before = self.out.requests[-2] if len(self.out.requests) > 1 else None
        index = self.out.call_turns[-1]
        first, last = deleted
        kept = [p for p in range(index) if (at := self.out.api_index[p]) is not None and not first <= at <= last]
        self.out.boundaries.append({
            "index": index, "trigger": "summarize_task" if summary is not None else "truncation", "kept": kept,
            "pre_tokens": before.context_tokens if before is not None and before.usage else None,
            "deleted_range": deleted, "previous_range": previous, "row": self.out.requests[-1].row,
            "request": len(self.out.requests) - 1,
            "summary_in_file": summary is not None})

    def _roo_compaction(self, row: dict, kind: str) -> None:
        facts = row.get("contextCondense" if kind == "condense_context" else "contextTruncation")
        if not isinstance(facts, dict):
            return  # the row shown while condensing (partial), or an error row
        index = len(self.out.messages) if self.reply is None else self.out.call_turns[-1]
        request = len(self.out.requests) - (1 if self.reply is not None else 0)  # the request it took effect for
        boundary = {"index": index, "trigger": "condense" if kind == "condense_context" else "truncation",
                    "request": request,
                    "pre_tokens": facts.get("prevContextTokens"), "post_tokens": facts.get("newContextTokens"),
                    "summary_in_file": kind == "condense_context"}
        if kind == "condense_context":
            boundary["cost_usd"] = facts.get("cost")
        else:
            boundary["messages_removed"] = facts.get("messagesRemoved")
        self.out.boundaries.append(boundary)


def _arguments(text: str, key: str) -> dict:
    """A tool row's arguments: its JSON object (a follow-up question with its options), else {key: text}."""
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    return value if isinstance(value, dict) else {key: text}


def results_of(text: str, calls: int) -> list[str] | None:
    """The turn's text cut at each tool's `[name for '...'] Result:` heading, one part per call (parts
    beyond the calls stay with the last; a turn with fewer headings than calls gives the first ones the
    text and the others NO_RESULT); None when the turn opens with no heading."""
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith("[") and TOOL_RESULT in line]
    if not starts or starts[0] != 0:
        return None
    cuts = starts[:calls] + [len(lines)]
    parts = ["\n".join(lines[cuts[k]:cuts[k + 1]]) for k in range(len(cuts) - 1)]
    return parts + [NO_RESULT] * (calls - len(parts))


def walk(rows: list) -> Panel:
    reader = Walk()
    for position, row in enumerate(rows):
        reader.read(position, row)
    return reader.finish()
