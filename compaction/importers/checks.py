"""Checks shared by every importer: the shape of one message, and problems across the history.

Shape problems the pipeline cannot work around (a wrong role, a block without a type) are errors;
problems that still leave a usable conversation (an unknown block type, two user messages in a row,
a broken tool_use/tool_result pair) are warnings with the message index.
"""

from typing import Any

from compaction.errors import ConversationError
from compaction.importers.limits import check_message_count
from compaction.importers.source import MAX_NESTING_DEPTH, depth_error, kind_of, too_deep
from compaction.model.conversation import Conversation, LoadWarning
from compaction.model.validity import PairProblem, check_pairs, is_waiting_call

ROLES = ("user", "assistant")

# Block types of the Messages API (client and server tools); others load with a warning.
KNOWN_BLOCK_TYPES = frozenset({
    "text", "image", "document", "tool_use", "tool_result", "thinking", "redacted_thinking",
    "server_tool_use", "web_search_tool_result", "web_fetch_tool_result", "code_execution_tool_result",
    "bash_code_execution_tool_result", "text_editor_code_execution_tool_result", "mcp_tool_use",
    "mcp_tool_result", "container_upload", "search_result",
})

# String fields a block type must carry, because the pipeline reads them.
REQUIRED_FIELDS: dict[str, tuple[str, ...]] = {
    "text": ("text",),
    "tool_use": ("id", "name"),
    "tool_result": ("tool_use_id",),
}


_MISSING = object()
_NO_IDS = ((), ())  # a message holding no blocks: no tool_use, no tool_result
_NESTED = (dict, list)
# A block's values may nest this deep: message -> content -> block -> value are the levels above.
_VALUE_DEPTH = MAX_NESTING_DEPTH - 3


def check_message(message: Any, where: "str | object", ids: list | None = None) -> list[str]:
    """Raise ConversationError if `message` cannot be placed; return warnings about it otherwise.

    `where` names the message for errors, e.g. "chat.json: messages[3]" or "s.jsonl: line 12". Run on
    every message of a file, so the common case takes the short path and words are built only for errors.
    The nesting bound is checked here, on what the conversation keeps (parts of a file that are not
    kept, such as a log's own copies of tool results, are never walked). `ids`, when given, gets the
    message's (tool_use ids, tool_result ids) for validity.pair_problems: the pair check then needs no
    pass of its own over the blocks.
    """
    if not isinstance(message, dict):
        raise ConversationError(f"a message must be an object, got {kind_of(message)}", where=where)
    role = message.get("role")
    if role != "user" and role != "assistant":
        raise ConversationError(f"role must be 'user' or 'assistant', got {role!r}", where=where)
    content = message.get("content", _MISSING)
    if isinstance(content, str):
        if ids is not None:
            ids.append(_NO_IDS)
        return []
    if content is _MISSING:
        raise ConversationError("the message has no 'content'", where=where)
    if not isinstance(content, list):
        raise ConversationError(
            f"'content' must be a string or a list of blocks, got {kind_of(content)}", where=where)
    warnings = []
    if ids is not None:
        # as validity._ids: an assistant's tool_use ids, a user's tool_result ids
        kind, key = ("tool_use", "id") if role == "assistant" else ("tool_result", "tool_use_id")
        found = [str(b.get(key)) for b in content if isinstance(b, dict) and b.get("type") == kind]
        ids.append((found, []) if role == "assistant" else ([], found))
    for position, block in enumerate(content):
        unknown = _block_problem(block)
        if unknown is None:
            continue
        block_where = f"{where}: content[{position}]"
        if unknown is not True:
            warnings.append(f"content[{position}]: unknown block type {unknown!r} kept as it is")
            continue
        check_block(block, block_where)  # raises with the words
        for inner_position, inner in enumerate(block["content"]):
            inner_unknown = check_block(inner, f"{block_where}.content[{inner_position}]")
            if inner_unknown:
                warnings.append(f"content[{position}].content[{inner_position}]: "
                                f"unknown block type {inner_unknown!r} kept as it is")
    return warnings


def _block_problem(block: Any) -> "str | bool | None":
    """None for a valid block of a known type (the fast path), its type when unknown, True for a
    block to look at closely (invalid, nested too deep, or a tool_result holding blocks)."""
    if not isinstance(block, dict):
        return True
    kind = block.get("type")
    for value in block.values():
        if isinstance(value, _NESTED) and too_deep(value, _VALUE_DEPTH):
            return True
    if kind == "text":
        return None if isinstance(block.get("text"), str) else True
    if kind == "tool_use":
        return None if isinstance(block.get("id"), str) and isinstance(block.get("name"), str) else True
    if kind == "tool_result":
        inner = block.get("content")
        return None if isinstance(block.get("tool_use_id"), str) and not isinstance(inner, list) else True
    if not isinstance(kind, str):
        return True
    return None if kind in KNOWN_BLOCK_TYPES else kind


def check_block(block: Any, where: str) -> str | None:
    """Raise for a block that cannot be placed; return its type when the type is unknown."""
    if not isinstance(block, dict):
        raise ConversationError(f"a content block must be an object, got {kind_of(block)}", where=where)
    block_type = block.get("type")
    if not isinstance(block_type, str):
        raise ConversationError("the block has no 'type'", where=where)
    for field in REQUIRED_FIELDS.get(block_type, ()):
        if not isinstance(block.get(field), str):
            found = f"got {kind_of(block[field])}" if field in block else "it is missing"
            raise ConversationError(
                f"{block_type} block needs '{field}' as a string, {found}", where=where)
    for value in block.values():
        if isinstance(value, _NESTED) and too_deep(value, _VALUE_DEPTH):
            raise depth_error(where)
    return None if block_type in KNOWN_BLOCK_TYPES else block_type


def only_tool_results(content: Any) -> bool:
    """Whether a content value is a non-empty list of tool_result blocks (a tool-reply message)."""
    return isinstance(content, list) and bool(content) and all(
        isinstance(block, dict) and block.get("type") == "tool_result" for block in content)


def same_role_warnings(messages: list[dict], fresh_starts: frozenset[int] = frozenset()) -> list[LoadWarning]:
    """Two messages of one role in a row. `fresh_starts` are indices where a new context begins (after
    a recorded compaction), where a message of the same role as the one before is expected."""
    roles = [message["role"] for message in messages]
    return [LoadWarning(f"two {roles[index]} messages in a row", index=index, kind="same_role")
            for index in range(1, len(roles)) if roles[index] == roles[index - 1] and index not in fresh_starts]


def pair_warnings(messages: list[dict], problems: list[PairProblem]) -> list[LoadWarning]:
    """The broken pairs as warnings; a call in the last message still waiting for its result is its own
    kind: the log stopped before the tool answered, which compaction did not cause."""
    return [LoadWarning(problem.detail, index=problem.index,
                        kind=WAITING_CALL if is_waiting_call(problem, len(messages)) else problem.kind)
            for problem in problems]


WAITING_CALL = "waiting_call"


def build_conversation(messages: list[dict], label: str, format: str, warnings: list[LoadWarning],
                       system: Any = None, tools: list | None = None, metadata: dict | None = None,
                       fresh_starts: frozenset[int] = frozenset(), usage: list | None = None,
                       timestamps: list | None = None, pair_problems: list[PairProblem] | None = None
                       ) -> Conversation:
    """The loaded conversation, after the checks across messages; warnings sorted by message index.
    The pair check runs here once (or the importer brings it, `pair_problems`): the conversation carries
    its result to every later reader."""
    if not messages:
        raise ConversationError("the conversation has no messages", where=label)
    check_message_count(len(messages), label)
    problems = check_pairs(messages) if pair_problems is None else pair_problems
    warnings = sorted(warnings + same_role_warnings(messages, fresh_starts) + pair_warnings(messages, problems),
                      key=lambda warning: -1 if warning.index is None else warning.index)
    return Conversation(messages=messages, system=system, tools=tools or [], format=format, source=label,
                        warnings=warnings, metadata=metadata or {}, usage=usage or [], timestamps=timestamps or [],
                        pair_problems=problems)
