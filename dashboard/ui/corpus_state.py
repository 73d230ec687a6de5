"""The Sessions page's state: which corpus is open, where it runs, the last analysis and sweep, and
opening one session for every other page.

An analysis runs only when asked (a button sets a request; the run clears it), with a progress bar and
a Cancel button. Cancel works through Streamlit itself: the click reruns the page, which interrupts the
run at its next progress update (the pool is closed on the way out) and the button's callback has
removed the request, so the rerun does not start it again.

What a browser may reach (a typed folder, ~/.claude/projects, a scheduler) is dashboard.ui.client's
`client_reach`: a browser on another machine reaches none of them unless COMPACTION_SESSION_FOLDERS /
COMPACTION_DASK_SCHEDULERS name some. An uploaded .zip is unpacked into the server's own store and read
whatever they say.
"""

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

import streamlit as st

from compaction.access import Reach
from compaction.corpus import (
    CorpusResult,
    Job,
    SessionFile,
    analyse,
    checked_path,
    corpus_root,
    discover,
    inside_any,
    unpack_sessions,
    with_refused,
)
from compaction.errors import CompactionError
from dashboard.render.corpus_tables import suggested_agent_folders
from dashboard.render.text import literal
from dashboard.ui import loading, state
from dashboard.ui.client import client_reach

ROWS, SWEEP = "rows", "sweep"
FOLDER_KEY = "sessions_folder"
WORKERS_KEY = "sessions_workers"
SCHEDULER_KEY = "sessions_scheduler"
_SOURCE = "_corpus_source"
_REQUEST = "_corpus_request"
_LAST = "_corpus_last"  # {ROWS: (key, CorpusResult), SWEEP: (key, CorpusResult)} for the open source
_OPENED = "_corpus_opened"  # (source, (path, run line), Loaded key) of the session last opened from the table
_ZIP_DONE = "_corpus_zip_done"  # file id of the last .zip unpacked


@dataclass(frozen=True)
class CorpusSource:
    label: str  # what the user gave: a folder path or an archive's name
    folder: str  # the folder read
    refused: dict[str, str] = field(default_factory=dict, hash=False, compare=False)  # archive members left out
    uploaded: bool = False  # unpacked into the server's own store, not one of its folders

    def files(self, reach: Reach) -> list[SessionFile]:
        """The session files as they are now. A typed folder is checked again, on its real path, against
        what `reach` allows: a folder swapped for a link since is refused (ConversationError)."""
        folder = self.folder if self.uploaded else str(corpus_root(self.folder, reach.allowed_folders()))
        return with_refused(discover(folder), folder, self.refused)


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 4))


def agent_folders() -> list[tuple[str, Path]]:
    """(agent, folder) of the agents' own log folders, offered with one click when they exist and this
    browser may read them (on this machine, or inside COMPACTION_SESSION_FOLDERS)."""
    reach = client_reach()
    if reach.folders_refusal:
        return []
    allowed = reach.allowed_folders()
    return [(agent, folder) for agent, folder in suggested_agent_folders(Path.home())
            if allowed is None or inside_any(folder, allowed)]


def source() -> CorpusSource | None:
    return st.session_state.get(_SOURCE)


def _open_source(new: CorpusSource) -> None:
    if source() != new:
        st.session_state[_LAST] = {}
    st.session_state[_SOURCE] = new


def use_folder(text: str) -> None:
    """Open a folder typed by the user; ConversationError when it is not a folder or not one this browser
    may read."""
    _open_source(CorpusSource(text.strip(), str(corpus_root(text.strip(), client_reach().allowed_folders()))))
    request(ROWS)


def use_archive(data: bytes, name: str, file_id: str) -> None:
    """Unpack an uploaded .zip (once per upload) into this session's private folder and open it."""
    if st.session_state.get(_ZIP_DONE) == file_id:
        return
    digest = hashlib.sha256(data).hexdigest()[:16]
    target = state.store().root / "corpus" / digest
    archive = target / "upload.zip"
    target.mkdir(parents=True, exist_ok=True)
    archive.write_bytes(data)
    try:
        unpacked = unpack_sessions(archive, target / (Path(name).stem or "sessions"), name)
    finally:
        archive.unlink()
    st.session_state[_ZIP_DONE] = file_id
    _open_source(CorpusSource(name, str(unpacked.folder), dict(unpacked.skipped), uploaded=True))
    request(ROWS)


def request(what: str) -> None:
    st.session_state[_REQUEST] = what


def cancel() -> None:
    """Cancel button callback."""
    st.session_state.pop(_REQUEST, None)


def requested(what: str) -> bool:
    return st.session_state.get(_REQUEST) == what


def where() -> tuple[int, str | None]:
    """(workers, Dask scheduler address or None) from the page's inputs; CompactionError when the address
    is not one this browser may use."""
    scheduler = client_reach().scheduler((st.session_state.get(SCHEDULER_KEY) or "").strip() or None)
    workers = st.session_state.get(WORKERS_KEY, default_workers())
    return int(workers), scheduler


def job(x=None, y=None) -> Job:
    return Job(state.settings(), None, x, y, state.prices())  # each session at its own model's window


def result_key(files: list[SessionFile], current: Job) -> tuple:
    """What decides the result: the files as they are on disk now, and the job."""
    stamps = []
    for item in files:
        try:
            info = item.path.stat()
            stamps.append((item.relative, item.run, item.refused, info.st_size, info.st_mtime_ns))
        except OSError:
            stamps.append((item.relative, item.run, item.refused, None, None))
    return tuple(stamps), current


def last(what: str) -> tuple[tuple, CorpusResult] | None:
    return st.session_state.get(_LAST, {}).get(what)


def run(what: str, files: list[SessionFile], current: Job) -> CorpusResult | None:
    """Analyse (or sweep) with a progress bar and a Cancel button; the result is kept as the last one."""
    try:
        workers, scheduler = where()
    except CompactionError as error:
        cancel()
        st.error(literal(str(error)))
        return None
    place = f"on the Dask cluster at {scheduler}" if scheduler else f"with {workers} worker process(es)"
    bar = st.progress(0.0, text=f"Reading {len(files):,} sessions {place}…")
    stop = st.empty()
    stop.button("Cancel", on_click=cancel, key=f"sessions_cancel_{what}", icon=":material/cancel:")
    verb = "Swept" if what == SWEEP else "Analysed"
    try:
        result = analyse(files, current, workers, scheduler, progress=lambda done, total: bar.progress(
            done / total, text=f"{verb} {done:,} of {total:,} sessions {place}…"))
    except CompactionError as error:
        bar.empty()
        st.error(str(error))
        return None
    finally:
        stop.empty()
        cancel()
    bar.progress(1.0, text=f"{verb} {len(result.rows):,} sessions {place}.")
    key = result_key(files, current)
    saved = st.session_state.setdefault(_LAST, {})
    saved[what] = (key, result)
    if what == SWEEP:  # the sweep's rows are those of its base settings
        saved[ROWS] = (result_key(files, Job(current.settings, current.model_window_tokens,
                                                    prices=current.prices)), result)
    return result


def open_row(row: dict, files: list[SessionFile]) -> None:
    """Make the session of `row` the one every page shows (once per selection); CompactionError when it
    cannot be read."""
    opened = st.session_state.get(_OPENED)
    place = (row["path"], row.get("run_line"))  # a file, or one run of an evaluation output
    if opened and opened[:2] == (source(), place) and state.loaded().key == opened[2]:
        return  # already on show
    item = next(found for found in files if (found.relative, found.run.line if found.run else None) == place)
    if item.refused:
        raise CompactionError(f"{item.relative}: {item.refused}")
    path = checked_path(item)
    new = loading.load_file(path, item.relative) if item.run is None else \
        loading.load_run_of(path, item.run, item.relative)
    loading.prepared(new.key, new.conversation)
    state.set_loaded(new)
    st.session_state[_OPENED] = (source(), place, new.key)
