"""Which files may be followed, and where the agents keep their logs.

On a server others reach, `COMPACTION_SESSION_FOLDERS` names the folders sessions may be read from (as
for the Sessions page: separated by the system's path separator, an empty value allowing none); a file
outside them, links resolved, is refused by name before anything is read. Unset, any file this process
can read may be followed, which suits one's own machine.

Agents' own folders: each agent's package registers where it keeps its logs (corpus/homes.py). The
newest files there are offered first: a live session is the one being written.
"""

import heapq
import os
from dataclasses import dataclass
from pathlib import Path

from compaction.corpus.files import inside_any
from compaction.corpus.homes import homes
from compaction.errors import ConversationError

ALLOWED_FOLDERS_ENV = "COMPACTION_SESSION_FOLDERS"
OFFERED = 30  # newest files listed


def allowed_folders() -> list[Path] | None:
    """The folders of COMPACTION_SESSION_FOLDERS, or None when it is not set (any folder)."""
    value = os.environ.get(ALLOWED_FOLDERS_ENV)
    if value is None:
        return None
    return [Path(part).expanduser() for part in value.split(os.pathsep) if part.strip()]


def followable(path: str | Path, allowed: list[Path] | None) -> Path:
    """The file to follow, resolved; ConversationError naming it when it is not a file or lies outside
    the `allowed` folders (None: anywhere)."""
    given = Path(path).expanduser()
    if allowed is not None and not inside_any(given, allowed):
        places = ", ".join(str(base) for base in allowed) or "none"
        raise ConversationError(f"outside the folders this server follows sessions in ({ALLOWED_FOLDERS_ENV}: "
                                f"{places})", where=str(path))
    if not given.exists():
        raise ConversationError("no such file", where=str(path))
    if not given.is_file():
        raise ConversationError("is not a file", where=str(path))
    return given.resolve()


@dataclass(frozen=True)
class Offered:
    agent: str
    path: Path
    modified: float  # seconds since the epoch
    size: int


def agent_sessions(home: Path, allowed: list[Path] | None, limit: int = OFFERED) -> list[Offered]:
    """The newest session files of the agents under `home`, newest first, only those allowed."""
    found: list[Offered] = []
    for place in homes():
        folder, agent = place.folder(home), place.agent
        if not folder.is_dir() or allowed is not None and not inside_any(folder, allowed):
            continue
        for pattern in place.patterns:
            for path in folder.rglob(pattern):
                try:
                    info = path.stat()
                except OSError:
                    continue
                if path.is_file():
                    found.append(Offered(agent, path, info.st_mtime, info.st_size))
    return heapq.nlargest(limit, found, key=lambda item: item.modified)
