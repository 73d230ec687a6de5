"""Finding the session files of a corpus folder, without reading anything outside it.

Session files are files of any format's suffix (importers/formats.py: .json, .jsonl, .traj, ...) anywhere
under the folder, in a stable order (sorted by their path relative to the folder). Folders are walked
without following symbolic links. A link whose target is inside the folder is read as its target; one
pointing outside is refused: it becomes a SessionFile with `refused` set (a row with that message), and
its target is never opened.

An evaluation output holding several runs, one a line, is one session per run (importers/runs.py): a
SessionFile each, the run's key beside the path. Only such files are read past their first line, and
once per version of the file (the Sessions page lists the folder at every rerun).
"""

import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from compaction.corpus.homes import project_by_home
from compaction.errors import ConversationError
from compaction.importers.formats import suffixes
from compaction.importers.runs import PART_OF_A_SESSION, RunKey, runs_in


@dataclass(frozen=True)
class SessionFile:
    """One file of a corpus: what travels to a worker (a path, never the contents)."""

    root: str  # the corpus folder, resolved
    relative: str  # path inside the folder, with forward slashes
    refused: str | None = None  # why it is not read (a link out of the folder)
    run: RunKey | None = None  # one run of an evaluation output of several; None: the whole file is the session

    @property
    def name(self) -> str:
        """How messages and tables name it: its path, and the run's name for one run of a file."""
        return self.relative if self.run is None else f"{self.relative} [{self.run.name}]"

    @property
    def path(self) -> Path:
        return Path(self.root, *PurePosixPath(self.relative).parts)

    @property
    def project(self) -> str:
        return project_of(self.relative, Path(self.root).name)


def project_of(relative: str, root_name: str) -> str:
    """The project a session belongs to, from where its agent keeps it (each agent's layout: homes.py),
    else the folder holding the file (the corpus folder's own name for a file at its top). An agent whose
    path names no project (only the day) is named by its log's working directory once read
    (project_of_cwd)."""
    path = PurePosixPath(relative)
    parts = path.parts[:-1]
    found = project_by_home((root_name, *parts), path.name)
    return found if found is not None else parts[-1] if parts else root_name


def project_of_cwd(cwd: str) -> str:
    """A working directory named as project folders are (every character but a letter or a digit becomes
    '-'), so that sessions of several agents in the same directory share a project."""
    return re.sub(r"[^A-Za-z0-9]", "-", cwd)


def corpus_root(folder: str | Path, allowed: "list[Path] | None" = None) -> Path:
    """The folder resolved; ConversationError when (with `allowed` given) it is not inside one of the
    `allowed` folders, links resolved first (said before whether it exists), or when it does not exist or
    is not a folder."""
    places = ", ".join(str(base) for base in allowed or ()) or "none (only uploaded .zip files)"
    root = confined(folder, allowed, f"outside the folders this server reads sessions from: {places}")
    if not root.exists():
        raise ConversationError("no such folder", where=str(folder))
    if not root.is_dir():
        raise ConversationError("is not a folder", where=str(folder))
    return root


def confined(path: str | Path, allowed: "list[Path] | None", refusal: str) -> Path:
    """`path` with every link resolved, when it may be used: anywhere when `allowed` is None, else only
    inside one of the `allowed` folders, and never given through '..'. ConversationError(`refusal`)
    naming the path otherwise. Call it at every read: a link can change between two."""
    given = Path(path).expanduser()
    real = Path(os.path.realpath(given))
    if allowed is None:
        return real
    if ".." in given.parts:
        raise ConversationError("a path through '..' is refused on this server: give it without '..'",
                                where=str(path))
    if not inside_any(real, allowed):
        raise ConversationError(refusal, where=str(path))
    return real


def discover(folder: str | Path) -> list[SessionFile]:
    """Every session file under `folder` (recursively), sorted by relative path."""
    root = corpus_root(folder)
    found: list[SessionFile] = []
    session_suffixes = suffixes()
    for directory, subdirectories, names in os.walk(root, onerror=None, followlinks=False):
        here = Path(directory)
        subdirectories.sort()
        for name in subdirectories:
            if (here / name).is_symlink() and not _inside(root, here / name):
                found.append(SessionFile(str(root), _relative(root, here / name),
                                         "a symbolic link to a folder outside the corpus folder; not followed"))
        for name in names:
            if not name.lower().endswith(session_suffixes):
                continue
            path = here / name
            refused = None
            if path.is_symlink() and not _inside(root, path):
                refused = "a symbolic link to a file outside the corpus folder; not read"
            relative = _relative(root, path)
            runs = () if refused else _runs(path)
            if runs is PART_OF_A_SESSION:  # its session is read from another file of the folder
                continue
            found.extend([SessionFile(str(root), relative, run=key) for key in runs]
                         or [SessionFile(str(root), relative, refused)])
    found.sort(key=lambda item: (item.relative, item.run.line if item.run else 0))
    return found


_RUNS_SEEN: dict[tuple[str, int, int], tuple[RunKey, ...]] = {}
_RUNS_KEPT = 512  # files whose runs are remembered


def _runs(path: Path) -> tuple[RunKey, ...]:
    """runs_in(path), worked out once per version of the file (its size and time of change)."""
    try:
        info = path.stat()
    except OSError:
        return ()
    version = (str(path), info.st_size, info.st_mtime_ns)
    found = _RUNS_SEEN.get(version)
    if found is None:
        found = runs_in(path)
        if len(_RUNS_SEEN) >= _RUNS_KEPT:
            _RUNS_SEEN.pop(next(iter(_RUNS_SEEN)))
        _RUNS_SEEN[version] = found
    return found


def with_refused(found: list[SessionFile], root: str | Path, refused: dict[str, str]) -> list[SessionFile]:
    """`found` and a refused SessionFile per {name: reason} (e.g. archive members not unpacked), sorted."""
    extra = [SessionFile(str(root), name, reason) for name, reason in refused.items()]
    return sorted([*found, *extra], key=lambda item: (item.relative, item.run.line if item.run else 0))


def checked_path(item: SessionFile) -> Path:
    """The file to read for `item`: its real path, checked again to lie inside the corpus folder (the
    link may have changed since discovery). ConversationError when it does not."""
    real = Path(os.path.realpath(item.path))
    if not _within(Path(item.root), real):
        raise ConversationError("a symbolic link to a file outside the corpus folder; not read", where=item.relative)
    return real


def inside_any(path: Path, folders: "list[Path]") -> bool:
    """Whether `path` is one of `folders` or lies under one, with every link resolved."""
    real = Path(os.path.realpath(path))
    return any(_within(Path(os.path.realpath(folder)), real) for folder in folders)


def _inside(root: Path, path: Path) -> bool:
    return _within(root, Path(os.path.realpath(path)))


def _within(root: Path, real: Path) -> bool:
    return real == root or root in real.parents


def _relative(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()
