"""Reading Anthropic-form messages: blocks, tool calls, tool results, content length.

Messages are plain dicts `{"role": ..., "content": str | list[block]}`; nothing here mutates them.
"""

from typing import Any

Message = dict[str, Any]


# The keys of a tool call's input that name a file, in the tools of the agents this project reads
FILE_INPUT_KEYS = ("path", "file_path", "filepath", "filename", "file", "notebook_path")

def blocks(message: Message) -> list[dict]:
    """The dict blocks of a message; a string content has none."""
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return []
    return [b for b in content if isinstance(b, dict)]


def tool_uses(message: Message) -> list[dict]:
    if not isinstance(message, dict) or message.get("role") != "assistant":
        return []
    return [b for b in blocks(message) if b.get("type") == "tool_use"]


def tool_results(message: Message) -> list[dict]:
    if not isinstance(message, dict) or message.get("role") != "user":
        return []
    return [b for b in blocks(message) if b.get("type") == "tool_result"]


def tool_result_positions(message: Message) -> tuple[int, ...]:
    """Positions of the tool_result blocks in a user message's content list."""
    content = message.get("content") if isinstance(message, dict) else None
    if message.get("role") != "user" or not isinstance(content, list):
        return ()
    return tuple(j for j, b in enumerate(content) if isinstance(b, dict) and b.get("type") == "tool_result")


def _has_block(message: Message, role: str, kind: str) -> bool:
    """Whether a `role` message holds a dict block of type `kind`; stops at the first one, building no
    list (snip asks this at every call of a replay)."""
    if not isinstance(message, dict) or message.get("role") != role:
        return False
    content = message.get("content")
    return isinstance(content, list) and any(isinstance(b, dict) and b.get("type") == kind for b in content)


def has_tool_use(message: Message) -> bool:
    return _has_block(message, "assistant", "tool_use")


def has_tool_result(message: Message) -> bool:
    return _has_block(message, "user", "tool_result")


def content_chars(content: Any) -> int:
    """Characters of a content value: a string's length, or the text of a list of blocks.

    Non-text blocks in a list count as the length of their repr, so an image still weighs something.
    """
    if isinstance(content, str):
        return len(content)
    if isinstance(content, list):
        total = 0
        for block in content:
            if isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str):
                total += len(block["text"])
            else:
                total += len(str(block))
        return total
    if content is None:
        return 0
    return len(str(content))


def content_text(content: Any) -> str:
    """The text of a content value: the string itself, or the text blocks joined by newlines."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, dict) and block.get("type") == "text":
                parts.append(str(block.get("text", "")))
            elif isinstance(block, str):
                parts.append(block)
        return "\n".join(parts)
    return "" if content is None else str(content)


def message_text(message: Message) -> str:
    """The plain text a person would read in a message (text blocks only)."""
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    return "\n".join(str(b.get("text", "")) for b in blocks(message) if b.get("type") == "text")


def block_types(message: Message) -> list[str]:
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return ["text"]
    return [str(b.get("type", "?")) for b in blocks(message)]


def tool_names_by_id(messages: list[Message]) -> dict[str, str]:
    """Map each tool_use id to its tool name, so a tool_result can be named from its id."""
    names: dict[str, str] = {}
    for message in messages:
        for use in tool_uses(message):
            use_id = use.get("id")
            if isinstance(use_id, str):
                names.setdefault(use_id, str(use.get("name", "?")))
    return names
