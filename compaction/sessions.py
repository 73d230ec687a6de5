"""One output store per browser session, under a shared root, and the removal of abandoned ones.

Each session gets `root/session-<32 hex>` (random, so one session cannot guess another's folder),
created owner-only (0700) so other users of the machine cannot read it either. A session folder whose
newest change is older than SESSION_MAX_AGE_S is removed by `remove_stale_sessions`, which the
dashboard calls whenever a new session starts.
"""

import os
import re
import shutil
import time
import uuid
from pathlib import Path

from .store import OutputStore

# A session folder untouched for this long is removed (its browser tab is long gone: Streamlit drops
# a disconnected session after minutes, and a session that is still open re-persists what it needs).
SESSION_MAX_AGE_S = 24 * 60 * 60
SESSION_PREFIX = "session-"
_SESSION_NAME = re.compile(r"session-[0-9a-f]{32}")


def new_session_store(root: str | Path) -> OutputStore:
    """A fresh, private store for one session under `root` (created if needed, owner-only)."""
    root = Path(root)
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder = root / f"{SESSION_PREFIX}{uuid.uuid4().hex}"
    folder.mkdir(mode=0o700)
    return OutputStore(folder)


def last_change(folder: Path) -> float:
    """The newest modification time of a session folder and its two sub-folders (a file written in
    either changes its folder's mtime), without walking the files."""
    times = []
    for path in (folder, folder / "tool-results", folder / "transcripts"):
        try:
            times.append(path.lstat().st_mtime)
        except OSError:
            continue
    return max(times, default=0.0)


def remove_stale_sessions(root: str | Path, max_age_s: float = SESSION_MAX_AGE_S, now: float | None = None,
                          keep: tuple[Path, ...] = ()) -> list[Path]:
    """Remove session folders under `root` unchanged for more than `max_age_s`; return those removed.

    Only real folders named like a session are touched (never a symlink, never another name), and
    never one in `keep` (the caller's own session).
    """
    root = Path(root)
    now = time.time() if now is None else now
    kept = {Path(path).resolve() for path in keep}
    removed = []
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
