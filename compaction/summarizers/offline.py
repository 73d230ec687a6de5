"""The default summariser: deterministic, no network, built from the conversation itself.

It fills the five headings of the tutorial's summary prompt from what the history shows: the
user's requests, the tool calls' inputs (paths, commands), the errors seen and the assistant's
latest words.
"""

import re

from ..messages import Message, content_text, message_text, tool_results, tool_uses

NAME = "offline"
_PATH_KEYS = ("path", "file_path", "file", "filename", "notebook_path")
_COMMAND_KEYS = ("command", "cmd")
_WRITE_TOOLS = re.compile(r"edit|write|create|patch|replace|insert|delete|move|apply", re.I)
_CONSTRAINT = re.compile(r"\b(must|mustn't|don't|do not|never|always|only|without|avoid|keep|should|"
                         r"please use|no more than|at most)\b", re.I)
_ERROR = re.compile(r"\b(error|exception|traceback|failed|failure|not found)\b", re.I)
_MARKERS = ("[snipped ", "[Compacted]", "[Reactive compact]", "[Earlier tool result compacted")


def _first_line(text: str, limit: int = 160) -> str:
    line = next((part.strip() for part in text.splitlines() if part.strip()), "")
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?。！？])\s+|\n+", text) if s.strip()]


def _unique(items: list[str], limit: int) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        if item and item not in seen:
            seen[item] = None
    values = list(seen)
    return values if len(values) <= limit else values[:limit - 1] + [f"… and {len(values) - limit + 1} more"]


def _is_marker(text: str) -> bool:
    return text.startswith(_MARKERS)


class OfflineSummarizer:
    """Summaries without an LLM. `max_items` bounds every list so the summary stays compact."""

    name = NAME

    def __init__(self, max_items: int = 8):
        self.max_items = max_items

    def summarize(self, messages: list[Message], focus: str | None = None) -> str:
        requests, constraints, findings, errors = [], [], [], []
        read, changed, commands = [], [], []
        last_assistant = ""
        names: dict[str, str] = {}
        for message in messages:
            text = message_text(message).strip()
            if message.get("role") == "user" and text and not _is_marker(text):
                requests.append(_first_line(text, 200))
                constraints += [s for s in _sentences(text) if _CONSTRAINT.search(s)]
            elif message.get("role") == "user" and text.startswith(("[Compacted]", "[Reactive compact]")):
                findings.append("Earlier summary: " + _first_line(text.split("\n", 1)[-1], 200))
            if message.get("role") == "assistant" and text:
                last_assistant = text
                findings.append(_first_line(text))
            for use in tool_uses(message):
                names[str(use.get("id"))] = str(use.get("name", "tool"))
                tool_input = use.get("input") if isinstance(use.get("input"), dict) else {}
                paths = [str(tool_input[k]) for k in _PATH_KEYS if isinstance(tool_input.get(k), str)]
                (changed if _WRITE_TOOLS.search(str(use.get("name", ""))) else read).extend(paths)
                commands += [str(tool_input[k]) for k in _COMMAND_KEYS if isinstance(tool_input.get(k), str)]
            for result in tool_results(message):
                output = content_text(result.get("content", ""))
                if result.get("is_error") or (_ERROR.search(output[:2000]) and not _is_marker(output)):
                    tool = names.get(str(result.get("tool_use_id")), "tool")
                    errors.append(f"{tool}: {_first_line(_error_line(output), 140)}")
        return self._render(requests, constraints, findings, errors, read, changed, commands,
                            last_assistant, focus, len(messages))

    def _render(self, requests, constraints, findings, errors, read, changed, commands,
                last_assistant, focus, count) -> str:
        limit = self.max_items
        goal = requests[-1] if requests else "(no user request in the summarised messages)"
        if len(requests) > 1 and requests[0] != goal:
            goal = f"{goal} (original task: {requests[0]})"
        lines = [f"Summary of {count} messages (offline summariser, no LLM)."]
        if focus:
            lines.append(f"Focus requested: {focus}")
        lines += ["", "1. Current goal", f"- {goal}", "", "2. Key findings and decisions"]
        lines += [f"- {f}" for f in _unique(findings[-limit:], limit)] or ["- (none recorded)"]
        lines += [f"- Error seen: {e}" for e in _unique(errors, max(limit // 2, 1))]
        lines += ["", "3. Files read or changed"]
        lines += [f"- changed: {', '.join(_unique(changed, limit * 2))}"] if changed else []
        lines += [f"- read: {', '.join(_unique(read, limit * 2))}"] if read else []
        lines += [f"- commands run: {'; '.join(_unique(commands, limit))}"] if commands else []
        if not (changed or read or commands):
            lines.append("- (no file or command in the summarised messages)")
        lines += ["", "4. Remaining work"]
        if last_assistant:
            lines.append(f"- Last step reported: {_first_line(last_assistant, 240)}")
        if errors:
            lines.append(f"- Resolve the last error: {errors[-1]}")
        if not last_assistant and not errors:
            lines.append("- Continue with the current goal.")
        lines += ["", "5. User constraints"]
        lines += [f"- {c}" for c in _unique(constraints, limit)] or ["- (none stated)"]
        return "\n".join(lines)


def _error_line(output: str) -> str:
    for line in output.splitlines():
        if _ERROR.search(line):
            return line.strip()
    return output


__all__ = ["OfflineSummarizer"]
