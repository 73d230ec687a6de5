"""One output store per browser session, under a shared root, and the removal of abandoned ones.

Each session gets `root/session-<32 hex>` (random, so one session cannot guess another's folder),
created owner-only (0700) so other users of the machine cannot read it either. A session folder whose
newest change is older than SESSION_MAX_AGE_S is removed by `remove_stale_sessions`, which the
dashboard calls whenever a new session starts.
"""

import os
import re
import shutil
import stat
import time
import uuid
from pathlib import Path

from compaction.errors import CompactionError
from compaction.storage.outputs import OutputStore

# A session folder untouched for this long is removed (its browser tab is long gone: Streamlit drops
# a disconnected session after minutes, and a session that is still open re-persists what it needs).
SESSION_MAX_AGE_S = 24 * 60 * 60
SESSION_PREFIX = "session-"
_SESSION_NAME = re.compile(r"session-[0-9a-f]{32}")


def new_session_store(root: str | Path) -> OutputStore:
    """A fresh, private store for one session under `root` (created if needed, owner-only)."""
    root = Path(root)
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    check_root(root)
    folder = root / f"{SESSION_PREFIX}{uuid.uuid4().hex}"
    folder.mkdir(mode=0o700)
    return OutputStore(folder)


def check_root(root: Path) -> None:
    """Refuse a root another user could tamper with: a symlink (e.g. planted in /tmp before the first
    start), a folder owned by someone else, or one that others may write to."""
    info = root.lstat()
    problem = ("is a symbolic link" if stat.S_ISLNK(info.st_mode)
               else "is not a folder" if not stat.S_ISDIR(info.st_mode)
               else "belongs to another user" if info.st_uid != os.getuid()
               else "can be written by other users" if info.st_mode & 0o022
               else None)
    if problem:
        raise CompactionError(f"the session store root {root} {problem}; set COMPACTION_STORE_ROOT to a "
                              "private folder")


def last_change(folder: Path, depth: int = 3) -> float:
    """The newest modification time of a session folder and its sub-folders (a file written in a
    folder changes that folder's mtime), without a stat per file."""
    newest, pending = 0.0, [(folder, 0)]
    while pending:
        current, level = pending.pop()
        try:
            newest = max(newest, current.lstat().st_mtime)
            if level < depth:
                with os.scandir(current) as entries:
                    pending.extend((Path(entry.path), level + 1) for entry in entries
                                   if entry.is_dir(follow_symlinks=False))
        except OSError:
            continue
    return newest


def remove_stale_sessions(root: str | Path, max_age_s: float = SESSION_MAX_AGE_S, now: float | None = None,
                          keep: tuple[Path, ...] = ()) -> list[Path]:
    """Remove session folders under `root` unchanged for more than `max_age_s`; return those removed.

    Only real folders named like a session are touched (never a symlink, never another name), and
    never one in `keep` (the caller's own session).
    """
    root = Path(root)
    now = time.time() if now is None else now
    kept = {Path(path).resolve() for path in keep}
    removed: list[Path] = []
    try:
        entries = list(os.scandir(root))
    except OSError:
        return removed
    for entry in entries:
        if not _SESSION_NAME.fullmatch(entry.name) or not entry.is_dir(follow_symlinks=False):
            continue
        folder = Path(entry.path)
        if folder.resolve() in kept or now - last_change(folder) <= max_age_s:
            continue
        shutil.rmtree(folder, ignore_errors=True)
        if not folder.exists():
            removed.append(folder)
    return removed
