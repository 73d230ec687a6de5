"""Which files may be followed, and where the agents keep their logs.

On a server others reach, `COMPACTION_SESSION_FOLDERS` names the folders sessions may be followed in
(compaction/access.py, as for the Sessions page); a file outside them, links resolved, is refused by name
before anything is read, and the follower checks again before every read (`still_followable`): a file
swapped for a link out of them stops the follow. Unset, any file may be followed from this machine.

Agents' own folders: each agent's package registers where it keeps its logs (corpus/homes.py). The
newest files there are offered first: a live session is the one being written.
"""

import heapq
from dataclasses import dataclass
from pathlib import Path

from compaction.access import SESSION_FOLDERS_ENV
from compaction.corpus.files import confined, inside_any
from compaction.corpus.homes import agent_homes
from compaction.errors import ConversationError

OFFERED = 30  # newest files listed


def followable(path: str | Path, allowed: list[Path] | None) -> Path:
    """The file to follow, resolved; ConversationError naming it when it is not a file or lies outside
    the `allowed` folders (None: anywhere)."""
    given = confined(path, allowed, f"outside the folders this server follows sessions in ({_listed(allowed)})")
    if not given.exists():
        raise ConversationError("no such file", where=str(path))
    if not given.is_file():
        raise ConversationError("is not a file", where=str(path))
    return given


def still_followable(path: Path, allowed: list[Path] | None) -> None:
    """Before each read of a followed file: ConversationError when its real path has left the `allowed`
    folders since (a link put in its place, a folder moved)."""
    confined(path, allowed, f"now leads outside the folders this server follows sessions in ({_listed(allowed)}): "
                            "the follow stopped and nothing more is read")


def _listed(allowed: list[Path] | None) -> str:
    return f"{SESSION_FOLDERS_ENV}: " + (", ".join(str(base) for base in allowed or ()) or "none")


@dataclass(frozen=True)
class Offered:
    agent: str
    path: Path
    modified: float  # seconds since the epoch
    size: int


def agent_sessions(home: Path, allowed: list[Path] | None, limit: int = OFFERED) -> list[Offered]:
    """The newest session files of the agents under `home`, newest first, only those allowed (a link out
    of an allowed folder is left out, its size and time unread)."""
    found: list[Offered] = []
    for place in agent_homes():
        folder, agent = place.folder(home), place.agent
        if not folder.is_dir() or allowed is not None and not inside_any(folder, allowed):
            continue
        for pattern in place.patterns:
            for path in folder.rglob(pattern):
                if allowed is not None and not inside_any(path, allowed):
                    continue
                try:
                    info = path.stat()
                except OSError:
                    continue
                if path.is_file():
                    found.append(Offered(agent, path, info.st_mtime, info.st_size))
    return heapq.nlargest(limit, found, key=lambda item: item.modified)
