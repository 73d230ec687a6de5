"""The caller's messages as the plain dicts the layers measure: `len(str(message))` is a size, so the
form matters, not only the content.

An agent loop appends `response.content` as it comes back (the SDK's pydantic blocks); those become
dicts with the keys in the order the Messages API documents them (`type` first, then the block's own
fields) and without the SDK's unset fields, which is also how a log or a sample stores them. Dicts the
caller wrote stay as they are, copied so a later change on the caller's side (the tutorial's own layers
edit messages in place) cannot reach the history this client keeps. Only `role` and `content` are kept:
the rest is not sent as context (the importers keep the same two).
"""

import copy
from typing import Any

from compaction.errors import ConversationError

# The documented order of each block type's fields; others follow in the SDK's order
FIELD_ORDER: dict[str, tuple[str, ...]] = {
    "text": ("type", "text", "citations"),
    "tool_use": ("type", "id", "name", "input"),
    "server_tool_use": ("type", "id", "name", "input"),
    "thinking": ("type", "thinking", "signature"),
    "redacted_thinking": ("type", "data"),
}


def plain_block(block: Any) -> Any:
    """A content block as a dict: an SDK object dumped in the documented order, a dict copied."""
    if isinstance(block, dict):
        return copy.deepcopy(block)
    dump = getattr(block, "model_dump", None)
    if dump is None:
        return copy.deepcopy(block)  # a string or another plain value: the checks below name it
    data = {key: value for key, value in dump(mode="json", warnings=False).items() if value is not None}
    first = FIELD_ORDER.get(data.get("type", ""), ("type",))
    return {**{key: data[key] for key in first if key in data},
            **{key: value for key, value in data.items() if key not in first}}


def plain_message(message: Any, position: int) -> dict:
    """One message of `messages=[...]` as {"role", "content"}; ConversationError names what is wrong."""
    where = f"messages[{position}]"
    if not isinstance(message, dict):
        dump = getattr(message, "model_dump", None)
        if dump is None:
            raise ConversationError(f"a message must be an object with 'role' and 'content', got "
                                    f"{type(message).__name__}", where=where)
        message = dump(mode="json")
    role = message.get("role")
    if role not in ("user", "assistant"):
        raise ConversationError(f"role must be 'user' or 'assistant', got {role!r}", where=where)
    if "content" not in message:
        raise ConversationError("the message has no 'content'", where=where)
    content = message["content"]
    if isinstance(content, str):
        return {"role": role, "content": content}
    if not isinstance(content, list | tuple):
        raise ConversationError(f"'content' must be a string or a list of blocks, got {type(content).__name__}",
                                where=where)
    blocks = [plain_block(block) for block in content]
    for index, block in enumerate(blocks):
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            raise ConversationError("a content block must be an object with a 'type'", where=f"{where}.content[{index}]")
    return {"role": role, "content": blocks}


def response_message(response: Any) -> dict:
    """The assistant message a Messages API response stands for (what the loop appends next)."""
    return plain_message({"role": "assistant", "content": list(getattr(response, "content", None) or [])}, 0)
