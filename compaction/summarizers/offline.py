"""The default summariser: deterministic, no network, built from the conversation itself.

It fills the five headings of the tutorial's summary prompt from what the history shows: the
user's requests (not the lines the agent injected into the user's turn: injected.py), the tool
calls' inputs (paths, commands), the errors seen and the assistant's latest words. An earlier summary in the history (the agent loop keeps summaries) is read back
section by section, so the goal, files and constraints survive any number of compactions.
"""

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from compaction.model.markers import PLACEHOLDER, SNIP_PREFIX, is_summary, summary_body
from compaction.model.messages import (
    FILE_INPUT_KEYS,
    Message,
    content_text,
    message_text,
    tool_results,
    tool_uses,
)
from compaction.summarizers.injected import typed_text

NAME = "offline"
MAX_REMEMBERED = 200_000  # messages whose notes a summariser keeps
_COMMAND_KEYS = ("command", "cmd")
_WRITE_TOOLS = re.compile(r"edit|write|create|patch|replace|insert|delete|move|apply", re.I)
_CONSTRAINT = re.compile(r"\b(must|mustn't|don't|do not|never|always|only|without|avoid|keep|should|"
                         r"please use|no more than|at most)\b", re.I)
_ERROR = re.compile(r"\b(error|exception|traceback|failed|failure|not found)\b", re.I)
_HEADING = re.compile(r"^([1-5])\. ")
_ORIGINAL_TASK = re.compile(r"^(.*) \(original task: (.*)\)$")
_MORE = "… and "
_TOOL_CALLS = "Tool calls: "
_TOOL_COUNT = re.compile(r"^(.+) ×(\d+)$")


def _first_line(text: str, limit: int = 160) -> str:
    line = next((part.strip() for part in text.splitlines() if part.strip()), "")
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?。！？])\s+|\n+", text) if s.strip()]


def _unique(items: list[str], limit: int) -> list[str]:
    values = [item for item in dict.fromkeys(items) if item and not item.startswith(_MORE)]  # uniques first: fewer
    return values if len(values) <= limit else values[:limit - 1] + [f"{_MORE}{len(values) - limit + 1} more"]


def _error_line(output: str) -> str:
    return next((line.strip() for line in output.splitlines() if _ERROR.search(line)), output)


@dataclass
class _Notes:
    requests: list[str] = field(default_factory=list)
    constraints: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    read: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    last_assistant: str = ""
    tool_calls: Counter = field(default_factory=Counter)

    def carry_forward(self, summary: str) -> None:
        """Take in an earlier summary: its sections when it is one of ours, else its first line."""
        carried = _carried(summary)
        if isinstance(carried, str):
            self.findings.append(carried)
            return
        requests, counts, errors, findings, changed, read, commands, constraints = carried
        self.requests += requests
        for name, count in counts:
            self.tool_calls[name] += count
        self.errors += errors
        self.findings += findings
        self.changed += changed
        self.read += read
        self.commands += commands
        self.constraints += constraints

    def take(self, part: "_MessageNotes", tool_names: dict[str, str]) -> None:
        """Add what one message holds (its notes, worked out once) to the notes of the whole."""
        if part.summary is not None:
            self.carry_forward(part.summary)
        if part.requests:
            self.requests += part.requests
        if part.constraints:
            self.constraints += part.constraints
        if part.finding:
            self.last_assistant = part.finding_text
            self.findings.append(part.finding)
        if part.calls:
            for tool_use_id, name in part.calls:
                tool_names[tool_use_id] = name
                self.tool_calls[name] += 1
        if part.read:
            self.read += part.read
        if part.changed:
            self.changed += part.changed
        if part.commands:
            self.commands += part.commands
        if part.errors:
            self.errors += [f"{tool_names.get(tool_use_id, 'tool')}: {line}" for tool_use_id, line in part.errors]


@lru_cache(maxsize=4096)
def _carried(summary: str) -> str | tuple[tuple, ...]:
    """An earlier summary's sections, read once per text (a sweep carries the same summary in many
    cells): (requests, tool counts, errors, findings, changed, read, commands, constraints), or the one
    finding a summary not written by this summariser leaves."""
    sections: dict[str, list[str]] = {}
    heading = None
    for line in summary.splitlines():
        found = _HEADING.match(line)
        if found:
            heading = found.group(1)
        elif heading and line.startswith("- "):
            sections.setdefault(heading, []).append(line[2:])
    if not sections:
        return "Earlier summary: " + _first_line(summary, 200)
    requests: list[str] = []
    for goal in sections.get("1", []):
        split = _ORIGINAL_TASK.match(goal)
        requests += [split.group(2), split.group(1)] if split else [goal]
    counts, errors, findings = [], [], []
    for finding in sections.get("2", []):
        if finding.startswith(_TOOL_CALLS):
            for part in finding.removeprefix(_TOOL_CALLS).split(", "):
                counted = _TOOL_COUNT.match(part)
                if counted:
                    counts.append((counted.group(1), int(counted.group(2))))
        elif finding.startswith("Error seen: "):
            errors.append(finding.removeprefix("Error seen: "))
        else:
            findings.append(finding)
    files: dict[str, list[str]] = {"changed": [], "read": [], "commands run": []}
    for line in sections.get("3", []):
        kind, _, items = line.partition(": ")
        if kind in ("changed", "read"):
            files[kind] += items.split(", ")
        elif kind == "commands run":
            files[kind] += items.split("; ")
    constraints = [c for c in sections.get("5", []) if c != "(none stated)"]
    return (tuple(requests), tuple(counts), tuple(errors), tuple(findings), tuple(files["changed"]),
            tuple(files["read"]), tuple(files["commands run"]), tuple(constraints))


@dataclass(frozen=True)
class _MessageNotes:
    """What one message gives the summary, independent of the messages around it (tool names of
    errors are looked up when the notes are added, from the calls before)."""

    summary: str | None = None  # an earlier summary's body
    requests: tuple[str, ...] = ()
    constraints: tuple[str, ...] = ()
    finding: str = ""
    finding_text: str = ""
    calls: tuple[tuple[str, str], ...] = ()  # (tool_use id, tool name)
    read: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    errors: tuple[tuple[str, str], ...] = ()  # (tool_use id, error line)


def _notes_of(message: Message) -> _MessageNotes:
    text = message_text(message).strip()
    summary = None
    requests: tuple[str, ...] = ()
    constraints: tuple[str, ...] = ()
    if is_summary(message):
        summary = summary_body(message)
    elif message.get("role") == "user" and text and not text.startswith(SNIP_PREFIX):
        typed = typed_text(message).strip()  # the agent's own lines are no task and no constraint
        requests = (_first_line(typed, 200),) if typed else ()
        constraints = tuple(s for s in _sentences(typed) if _CONSTRAINT.search(s))
    assistant = message.get("role") == "assistant" and bool(text)
    calls: list[tuple[str, str]] = []
    read: list[str] = []
    changed: list[str] = []
    commands: list[str] = []
    for use in tool_uses(message):
        name = str(use.get("name", "tool"))
        calls.append((str(use.get("id")), name))
        tool_input = given if isinstance(given := use.get("input"), dict) else {}
        paths = [str(tool_input[k]) for k in FILE_INPUT_KEYS if isinstance(tool_input.get(k), str)]
        (changed if _WRITE_TOOLS.search(name) else read).extend(paths)
        commands += [str(tool_input[k]) for k in _COMMAND_KEYS if isinstance(tool_input.get(k), str)]
    errors = []
    for result in tool_results(message):
        output = content_text(result.get("content", ""))
        if result.get("is_error") or (_ERROR.search(output[:2000]) and not output.startswith(
                ("<persisted-output>", PLACEHOLDER))):
            errors.append((str(result.get("tool_use_id")), _first_line(_error_line(output), 140)))
    return _MessageNotes(summary, requests, constraints, _first_line(text) if assistant else "",
                         text if assistant else "", tuple(calls), tuple(read), tuple(changed), tuple(commands),
                         tuple(errors))


class OfflineSummarizer:
    """Summaries without an LLM. `max_items` bounds every list so the summary stays compact."""

    name = NAME

    def __init__(self, max_items: int = 8):
        self.max_items = max_items
        # each message's notes, worked out once: a sweep summarises the same messages in many cells
        self._notes: dict[int, tuple[Message, _MessageNotes]] = {}

    def summarize(self, messages: list[Message], focus: str | None = None) -> str:
        notes = _Notes()
        tool_names: dict[str, str] = {}
        for message in messages:
            notes.take(self._notes_for(message), tool_names)
        return self._render(notes, focus, len(messages))

    def _notes_for(self, message: Message) -> _MessageNotes:
        known = self._notes.get(id(message))
        if known is not None and known[0] is message:  # the message is held, so its id is not reused
            return known[1]
        if len(self._notes) > MAX_REMEMBERED:
            self._notes.clear()
        part = _notes_of(message)
        self._notes[id(message)] = (message, part)
        return part

    def _render(self, notes: _Notes, focus: str | None, count: int) -> str:
        limit = self.max_items
        requests = notes.requests
        goal = requests[-1] if requests else "(no user request in the summarised messages)"
        if len(requests) > 1 and requests[0] != goal:
            goal = f"{goal} (original task: {requests[0]})"
        lines = [f"Summary of {count} messages (offline summariser, no LLM)."]
        if focus:
            lines.append(f"Focus requested: {focus}")
        lines += ["", "1. Current goal", f"- {goal}", "", "2. Key findings and decisions"]
        findings = [f"- {f}" for f in _unique(notes.findings[-limit:], limit)]
        if notes.tool_calls:
            counts = ", ".join(f"{name} ×{count}" for name, count in notes.tool_calls.most_common(limit))
            findings.append(f"- {_TOOL_CALLS}{counts}")
        lines += findings or ["- (none recorded)"]
        lines += [f"- Error seen: {e}" for e in _unique(notes.errors, max(limit // 2, 1))]
        lines += ["", "3. Files read or changed"]
        lines += [f"- changed: {', '.join(_unique(notes.changed, limit * 2))}"] if notes.changed else []
        lines += [f"- read: {', '.join(_unique(notes.read, limit * 2))}"] if notes.read else []
        lines += [f"- commands run: {'; '.join(_unique(notes.commands, limit))}"] if notes.commands else []
        if not (notes.changed or notes.read or notes.commands):
            lines.append("- (no file or command in the summarised messages)")
        lines += ["", "4. Remaining work"]
        if notes.last_assistant:
            lines.append(f"- Last step reported: {_first_line(notes.last_assistant, 240)}")
        if notes.errors:
            lines.append(f"- Resolve the last error: {notes.errors[-1]}")
        if not notes.last_assistant and not notes.errors:
            lines.append("- Continue with the current goal.")
        lines += ["", "5. User constraints"]
        lines += [f"- {c}" for c in _unique(notes.constraints, limit)] or ["- (none stated)"]
        return "\n".join(lines)
