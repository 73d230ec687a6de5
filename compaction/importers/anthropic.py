"""Anthropic Messages input: a list of messages, `{"messages": [...]}`, a whole request body, or JSONL.

A request body keeps its `system` and `tools`, because they count toward the context. JSONL (one
message per line) is what the pipeline's own transcripts look like.
"""

from typing import Any

from compaction.errors import ConversationError
from compaction.importers.checks import build_conversation, check_message
from compaction.importers.jsonl import JsonLines
from compaction.importers.source import MAX_NESTING_DEPTH, depth_error, kind_of, too_deep
from compaction.model.conversation import Conversation, LoadWarning
from compaction.model.messages import Message
from compaction.model.validity import pair_problems

FORMAT = "anthropic"


def from_json(value: Any, label: str) -> Conversation:
    """A conversation from the parsed JSON of an Anthropic messages list or request body."""
    system, tools = None, []
    if not isinstance(value, dict | list):
        raise ConversationError(
            f"expected a list of messages or an object with 'messages', got {kind_of(value)}", where=label)
    if isinstance(value, dict):
        if "messages" not in value:
            raise ConversationError(
                "expected a list of messages or an object with 'messages'; found keys "
                + ", ".join(repr(key) for key in list(value)[:8]), where=label)
        system = _system(value.get("system"), label)
        tools = _tools(value.get("tools"), label)
        value = value["messages"]
    if not isinstance(value, list):
        raise ConversationError(f"'messages' must be a list, got {kind_of(value)}", where=label)
    warnings: list[LoadWarning] = []
    ids: list = []  # per message: (tool_use ids, tool_result ids), see check_message
    for index, message in enumerate(value):
        for text in check_message(message, _Where(label, index), ids):
            warnings.append(LoadWarning(text, index=index))
    return _conversation(value, system, tools, warnings, label, pair_problems(ids, len(value)))


class _Where:
    """"file: messages[i]", worded only when an error needs it (a file holds many messages)."""

    __slots__ = ("label", "index")

    def __init__(self, label: str, index: int):
        self.label, self.index = label, index

    def __str__(self) -> str:
        return f"{self.label}: messages[{self.index}]"


def lines_look_like(objects: list[tuple[int, dict]]) -> bool:
    """JSONL of bare messages (the pipeline's transcripts) rather than a log of typed lines."""
    return bool(objects) and "role" in objects[0][1] and "type" not in objects[0][1]


def from_lines(lines: JsonLines) -> Conversation:
    """A conversation from one message object a line (lines that are not JSON objects skipped)."""
    label = lines.label
    messages: list[Message] = []
    warnings = [w for w in (lines.skipped_warning(),) if w]
    for number, message in lines.objects:
        for warning in check_message(message, f"{label}: line {number}"):
            warnings.append(LoadWarning(warning, index=len(messages), line=number))
        messages.append(message)
    if not messages:
        raise ConversationError("no message lines" + lines.first_problem(), where=label)
    return _conversation(messages, None, [], warnings, label)


def _conversation(messages, system, tools, warnings, label, problems=None) -> Conversation:
    # Keep only what the API reads, so exported extras (ids, timestamps) do not count as context; a
    # message with nothing else is kept as it is (the loader's own parse: nobody else holds it).
    messages = [message if len(message) == 2 else {"role": message["role"], "content": message["content"]}
                for message in messages]
    return build_conversation(messages, label, FORMAT, warnings, system=system, tools=tools, pair_problems=problems)


def _system(system: Any, label: str) -> Any:
    if system is None or isinstance(system, str):
        return system
    if isinstance(system, list) and all(isinstance(block, dict) and block.get("type") == "text"
                                        and isinstance(block.get("text"), str) for block in system):
        if too_deep(system, MAX_NESTING_DEPTH - 1):
            raise depth_error(f"{label}: system")
        return system
    raise ConversationError("'system' must be a string or a list of text blocks", where=f"{label}: system")


def _tools(tools: Any, label: str) -> list[dict]:
    if tools is None:
        return []
    if not isinstance(tools, list):
        raise ConversationError(f"'tools' must be a list, got {kind_of(tools)}", where=f"{label}: tools")
    for index, tool in enumerate(tools):
        if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
            raise ConversationError("a tool must be an object with a 'name'", where=f"{label}: tools[{index}]")
        if too_deep(tool, MAX_NESTING_DEPTH - 2):
            raise depth_error(f"{label}: tools[{index}]")
    return tools
