"""One OpenCode session as its three stores give it, before it becomes API messages: the session's row
(`info`: id, title, version, directory, time, parentID) and its messages in order, each its `info` (role,
time, modelID, providerID, tokens, cost, summary, ...) and its parts (text, reasoning, tool, file,
compaction, step-start, step-finish, patch, ...).

`opencode export <session>` writes `{info, messages: [{info, parts}]}`; the server's
`GET /session/:id/message` answers the messages alone, `[{info, parts}]`; a file may hold a list of
exports. The database and the older JSON files are read into the same shape (database.py, storage.py).
"""

from dataclasses import dataclass, field
from typing import Any

from compaction.errors import ConversationError
from compaction.importers.source import kind_of


@dataclass
class Message:
    info: dict
    parts: list[dict]
    where: str  # how an error names it: "messages[3]", "message msg_..."


@dataclass
class Session:
    info: dict
    messages: list[Message] = field(default_factory=list)
    layout: str = "export"  # export | messages | database | storage

    @property
    def id(self) -> str:
        found = self.info.get("id")
        return found if isinstance(found, str) else ""

    @property
    def title(self) -> str:
        found = self.info.get("title")
        return found.strip() if isinstance(found, str) and found.strip() else self.id or "untitled"


def is_message(value: Any) -> bool:
    """`{info: {role, ...}, parts: [...]}`, one message as OpenCode exports and serves it."""
    return isinstance(value, dict) and isinstance(value.get("info"), dict) and isinstance(value.get("parts"), list) \
        and value["info"].get("role") in ("user", "assistant")


def is_export(value: Any) -> bool:
    """`{info: <session>, messages: [...]}` whose messages (when there are any) are OpenCode's."""
    if not (isinstance(value, dict) and isinstance(value.get("info"), dict) and isinstance(value.get("messages"), list)):
        return False
    first = next(iter(value["messages"]), None)
    return is_message(first) if first is not None else isinstance(value["info"].get("id"), str)


def looks_like(value: Any) -> bool:
    """An export, a list of exports, or a session's messages as the server answers them."""
    if is_export(value):
        return True
    if isinstance(value, list) and value:
        return all(is_export(item) for item in value[:3]) or all(is_message(item) for item in value[:3])
    return False


def sessions_of(value: Any, label: str) -> list[Session]:
    """The sessions a parsed export file holds, in its order."""
    if is_export(value):
        return [_export(value, "", label)]
    if isinstance(value, list) and value and all(is_export(item) for item in value):
        return [_export(item, f"[{number}].", label) for number, item in enumerate(value)]
    if isinstance(value, list) and value and all(isinstance(item, dict) and "info" in item for item in value):
        messages = _messages(value, "", label)
        named = next((m.info["sessionID"] for m in messages if isinstance(m.info.get("sessionID"), str)), None)
        return [Session({"id": named} if named else {}, messages, "messages")]
    raise ConversationError(f"expected an OpenCode export ({{info, messages: [{{info, parts}}]}}), a list of them, "
                            f"or a session's messages ([{{info, parts}}]), got {kind_of(value)}", where=label)


def _export(value: dict, prefix: str, label: str) -> Session:
    return Session(value["info"], _messages(value["messages"], prefix + "messages", label), "export")


def _messages(items: list, name: str, label: str) -> list[Message]:
    found = []
    for number, item in enumerate(items):
        where = f"{name}[{number}]"
        if not isinstance(item, dict) or not isinstance(item.get("info"), dict):
            raise ConversationError(f"{where}: expected {{info, parts}}, got {kind_of(item)}", where=label)
        parts = item.get("parts")
        if parts is not None and not isinstance(parts, list):
            raise ConversationError(f"{where}.parts: expected a list, got {kind_of(parts)}", where=label)
        found.append(Message(item["info"], [part for part in parts or () if isinstance(part, dict)], where))
    return found
