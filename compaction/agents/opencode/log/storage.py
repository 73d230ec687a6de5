"""The JSON files of OpenCode before its database (versions up to 1.0; `~/.local/share/opencode/storage/`):
one file per session, per message and per part, pretty-printed (packages/opencode/src/storage/storage.ts).

- `session/<projectID>/<sessionID>.json` (the session's info), `message/<sessionID>/<messageID>.json`,
  `part/<messageID>/<partID>.json`;
- the oldest layout (before the move of June 2025): `session/info/<sessionID>.json`,
  `session/message/<sessionID>/<messageID>.json`, `session/part/<sessionID>/<messageID>/<partID>.json`.

A session is read from its info file, the messages and parts beside it found by the layout; ids sort in
time order (OpenCode's ascending ids), as OpenCode lists them.
"""

from pathlib import Path
from typing import Any

from compaction.agents.opencode.log.session import Message, Session
from compaction.errors import ConversationError
from compaction.importers.source import loads_line

SESSION_PREFIX, MESSAGE_PREFIX, PART_PREFIX = "ses_", "msg_", "prt_"
OLD_INFO = "info"  # session/info/<id>.json: the oldest layout


def is_session_info(value: Any) -> bool:
    """A session's info file: its id, its time, no role."""
    return isinstance(value, dict) and isinstance(value.get("id"), str) and value["id"].startswith(SESSION_PREFIX) \
        and isinstance(value.get("time"), dict) and "role" not in value and "messages" not in value


def is_stored_piece(value: Any) -> bool:
    """A message's or a part's own file (it names its session, and a message its role)."""
    return isinstance(value, dict) and isinstance(value.get("id"), str) \
        and value["id"].startswith((MESSAGE_PREFIX, PART_PREFIX)) and isinstance(value.get("sessionID"), str)


def _folders(info_path: Path) -> tuple[Path, Path] | None:
    """(the message folder of the session, the folder holding a folder of parts per message)."""
    if info_path.parent.parent.name != "session":
        return None
    session_id = info_path.stem
    if info_path.parent.name == OLD_INFO:
        base = info_path.parent.parent
        return base / "message" / session_id, base / "part" / session_id
    storage = info_path.parent.parent.parent
    return storage / "message" / session_id, storage / "part"


def is_stored_piece_path(path: Path) -> bool:
    """A message's or a part's own file where the storage keeps it (message/<session>/msg_*.json,
    part/<message>/prt_*.json, or under session/ in the oldest layout), told by its path alone."""
    parents = [folder.name for folder in path.parents][:3]
    return path.suffix == ".json" and path.name.startswith((MESSAGE_PREFIX, PART_PREFIX)) \
        and ("message" in parents[1:3] or "part" in parents[1:3])


def is_stored_session(path: Path) -> bool:
    """A session info file whose messages lie beside it in a storage folder."""
    found = _folders(path) if path.name.startswith(SESSION_PREFIX) and path.suffix == ".json" else None
    return found is not None and found[0].is_dir()


def read_stored(path: Path, label: str) -> Session:
    """The session of the info file at `path`, its messages and parts read from their files."""
    found = _folders(path)
    if found is None:
        raise ConversationError("not an OpenCode session file (storage/session/<project>/ses_*.json)", where=label)
    message_folder, part_root = found
    info = _read(path, label)
    messages = []
    for message_path in sorted(message_folder.glob(f"{MESSAGE_PREFIX}*.json")):
        message = _read(message_path, label)
        part_folder = part_root / message_path.stem
        parts = [_read(part_path, label) for part_path in sorted(part_folder.glob(f"{PART_PREFIX}*.json"))]
        messages.append(Message(message, parts, f"message {message_path.stem}"))
    return Session(info, messages, "storage")


def read_info(path: Path, label: str) -> dict:
    """The session's info file alone (its title, for a corpus's list)."""
    return _read(path, label)


def _read(path: Path, label: str) -> dict:
    try:
        value = loads_line(path.read_bytes())
    except OSError as error:
        raise ConversationError(f"{path.name}: cannot read it ({error.strerror or error})", where=label) from None
    except (ValueError, RecursionError) as error:
        raise ConversationError(f"{path.name}: not JSON ({error})", where=label) from None
    if not isinstance(value, dict):
        raise ConversationError(f"{path.name}: not a JSON object", where=label)
    return value
