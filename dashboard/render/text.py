"""Messages as text a person can read: one line for tables, the full text for a viewer.

`name_of(tool_use_id)` names the tool a tool_result answers (History.tool_name); without it, "?".
"""

import json
import re
from collections.abc import Callable
from typing import Any

from compaction.model import blocks, content_text

FIRST_LINE_CHARS = 120


def first_line(text: str, limit: int = FIRST_LINE_CHARS) -> str:
    """The first non-blank line, cut to `limit` characters with an ellipsis."""
    line = next((part.strip() for part in text.splitlines() if part.strip()), "")
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _unknown(tool_use_id: str) -> str:
    return "?"


def _block_text(block: dict, name_of: Callable[[str], str]) -> str:
    kind = block.get("type")
    if kind == "text":
        return str(block.get("text", ""))
    if kind == "tool_use":
        arguments = json.dumps(block.get("input", {}), ensure_ascii=False, indent=2, default=str)
        return f"[tool call: {block.get('name', '?')}  id {block.get('id', '?')}]\n{arguments}"
    if kind == "tool_result":
        use_id = str(block.get("tool_use_id", "?"))
        error = "  (error)" if block.get("is_error") else ""
        header = f"[tool result for {name_of(use_id)}  id {use_id}{error}]"
        return f"{header}\n{content_text(block.get('content', ''))}"
    if kind in ("thinking", "redacted_thinking"):
        return f"[{kind}]\n{block.get('thinking', '')}"
    return f"[{kind} block]\n{json.dumps(block, ensure_ascii=False, default=str)[:2000]}"


def message_full_text(message: dict[str, Any], name_of: Callable[[str], str] | None = None) -> str:
    """Everything a message says: text, tool calls with their input, tool results with their output."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    names = name_of or _unknown
    return "\n\n".join(_block_text(block, names) for block in blocks(message))


def _block_line(block: dict, name_of: Callable[[str], str]) -> str:
    kind = block.get("type")
    if kind == "text":
        return first_line(str(block.get("text", "")))
    if kind == "tool_use":
        arguments = json.dumps(block.get("input", {}), ensure_ascii=False, default=str)
        return f"{block.get('name', '?')} {arguments}"
    if kind == "tool_result":
        name = name_of(str(block.get("tool_use_id", "?")))
        return f"{name} → {first_line(content_text(block.get('content', '')))}"
    return f"[{kind}]"


def message_summary_line(message: dict[str, Any], name_of: Callable[[str], str] | None = None) -> str:
    """One line for a table: the first text line, or the tool calls and results the message holds."""
    content = message.get("content")
    if isinstance(content, str):
        return first_line(content)
    names = name_of or _unknown
    parts = [line for line in (_block_line(block, names) for block in blocks(message)) if line]
    return first_line(" · ".join(parts))


_MARKDOWN_SPECIALS = re.compile(r"([\\`*\[\]()<>!~$])")  # links, images, code, emphasis, directives, LaTeX


def literal(text: str) -> str:
    """`text` escaped so Streamlit's markdown shows it as typed: a file name or an error quoting the
    input must not turn into a link, an image from elsewhere, or formatting."""
    return _MARKDOWN_SPECIALS.sub(r"\\\1", str(text))
