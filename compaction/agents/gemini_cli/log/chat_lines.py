"""The JSON-lines chat recording gemini-cli writes since April 2026 (`session-*.jsonl`), read the way
its own loader reads it (chatRecordingService.ts, loadConversationRecord):

- the first line holds the session's fields (`sessionId`, `projectHash`, `startTime`, ...);
- each message is a line of its own (`id`, `type`, `content`, ...); a message written again (its tokens
  or tool calls added) replaces the earlier copy and keeps its place;
- `{"$rewindTo": id}` drops that message and every later one (a rewind);
- a line of the session's fields after the first is a new start of the same session (the a2a server
  writes its header and session context again each time it starts); the starts are counted;
- `{"$set": {...}}` updates the session's fields; with `messages` it is a checkpoint: the history
  becomes that list. When the list leaves out messages that were there (the history was compressed or
  rolled back), the conversation loaded is the one after it, as gemini-cli would resume it, and the
  replacement is reported.
"""

from dataclasses import dataclass, field
from typing import Any

from compaction.importers.jsonl import JsonLines


@dataclass
class ChatLines:
    fields: dict[str, Any] = field(default_factory=dict)
    messages: dict[str, dict] = field(default_factory=dict)  # by id, in the order first written
    rewinds: int = 0
    starts: int = 0  # lines of the session's fields: 1, or more when the session was started again
    replacements: list[int] = field(default_factory=list)  # lines of checkpoints that dropped messages
    lines_not_read: int = 0


def looks_like(objects: list[tuple[int, dict]]) -> bool:
    return bool(objects) and _is_fields(objects[0][1])


def _is_fields(value: dict) -> bool:
    return isinstance(value.get("sessionId"), str) and isinstance(value.get("projectHash"), str) \
        and "type" not in value


def read_chat_lines(lines: JsonLines) -> ChatLines:
    chat = ChatLines()
    for number, value in lines.objects:
        if isinstance(value.get("$rewindTo"), str):
            _rewind(chat, value["$rewindTo"])
        elif isinstance(value.get("$set"), dict):
            update = value["$set"]
            if isinstance(update.get("messages"), list):
                _checkpoint(chat, update["messages"], number)
            chat.fields.update({k: v for k, v in update.items() if k != "messages"})
        elif isinstance(value.get("id"), str):
            chat.messages[value["id"]] = value
        elif _is_fields(value):
            chat.starts += 1
            chat.fields.update({k: v for k, v in value.items() if k != "messages"})
            for message in value.get("messages") or ():  # a whole older record on one line
                if isinstance(message, dict) and isinstance(message.get("id"), str):
                    chat.messages[message["id"]] = message
        else:
            chat.lines_not_read += 1
    return chat


def _rewind(chat: ChatLines, message_id: str) -> None:
    chat.rewinds += 1
    ids = list(chat.messages)
    keep = ids[: ids.index(message_id)] if message_id in chat.messages else []
    chat.messages = {i: chat.messages[i] for i in keep}


def _checkpoint(chat: ChatLines, messages: list, number: int) -> None:
    rebuilt = {m["id"]: m for m in messages if isinstance(m, dict) and isinstance(m.get("id"), str)}
    if any(message_id not in rebuilt for message_id in chat.messages):
        chat.replacements.append(number)
    chat.messages = rebuilt
