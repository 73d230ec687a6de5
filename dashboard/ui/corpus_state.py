"""The Sessions page's state: which corpus is open, where it runs, the last analysis and sweep, and
opening one session for every other page.

An analysis runs only when asked (a button sets a request; the run clears it), with a progress bar and
a Cancel button. Cancel works through Streamlit itself: the click reruns the page, which interrupts the
run at its next progress update (the pool is closed on the way out) and the button's callback has
removed the request, so the rerun does not start it again.
"""

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

import streamlit as st

from compaction.corpus import CorpusResult, Job, SessionFile, analyse, discover, unpack_sessions
from compaction.corpus.files import checked_path, inside_any, with_refused
from compaction.errors import CompactionError
from dashboard.render.corpus_tables import suggested_agent_folders
from dashboard.render.text import literal
from dashboard.ui import loading, state

ROWS, SWEEP = "rows", "sweep"
FOLDER_KEY = "sessions_folder"
ALLOWED_FOLDERS_ENV = "COMPACTION_SESSION_FOLDERS"
WORKERS_KEY = "sessions_workers"
SCHEDULER_KEY = "sessions_scheduler"
ALLOWED_SCHEDULERS_ENV = "COMPACTION_DASK_SCHEDULERS"
_SOURCE = "_corpus_source"
_REQUEST = "_corpus_request"
_LAST = "_corpus_last"  # {ROWS: (key, CorpusResult), SWEEP: (key, CorpusResult)} for the open source
_OPENED = "_corpus_opened"  # (source, path, Loaded key) of the session last opened from the table
_ZIP_DONE = "_corpus_zip_done"  # file id of the last .zip unpacked


@dataclass(frozen=True)
class CorpusSource:
    label: str  # what the user gave: a folder path or an archive's name
    folder: str  # the folder read
    refused: dict[str, str] = field(default_factory=dict, hash=False, compare=False)  # archive members left out

    def files(self) -> list[SessionFile]:
        return with_refused(discover(self.folder), self.folder, self.refused)


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 4))


def agent_folders() -> list[tuple[str, Path]]:
    """(agent, folder) of the agents' own log folders, offered with one click when the browser is on this
    machine and the folder is one this server may read."""
    allowed = allowed_folders()
    return [(agent, folder) for agent, folder in suggested_agent_folders(Path.home(), st.context.ip_address)
            if allowed is None or inside_any(folder, allowed)]


def source() -> CorpusSource | None:
    return st.session_state.get(_SOURCE)


def _open_source(new: CorpusSource) -> None:
    if source() != new:
        st.session_state[_LAST] = {}
    st.session_state[_SOURCE] = new


def allowed_folders() -> list[Path] | None:
    """The folders a typed path must lie in, from COMPACTION_SESSION_FOLDERS (separated by the system's
    path separator; empty: no folder at all, only uploads). Unset: any folder the server can read, which
    suits the app on one's own machine; set it when others reach the server."""
    value = os.environ.get(ALLOWED_FOLDERS_ENV)
    if value is None:
        return None
    return [Path(part).expanduser() for part in value.split(os.pathsep) if part.strip()]


def use_folder(text: str) -> None:
    """Open a folder typed by the user; ConversationError when it is not a folder or not allowed."""
    from compaction.corpus import corpus_root

    _open_source(CorpusSource(text.strip(), str(corpus_root(text.strip(), allowed_folders()))))
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
    _open_source(CorpusSource(name, str(unpacked.folder), dict(unpacked.skipped)))
    request(ROWS)


def request(what: str) -> None:
    st.session_state[_REQUEST] = what


def cancel() -> None:
    """Cancel button callback."""
    st.session_state.pop(_REQUEST, None)


def requested(what: str) -> bool:
    return st.session_state.get(_REQUEST) == what


def allowed_schedulers() -> list[str] | None:
    """The Dask scheduler addresses this server may connect to, from COMPACTION_DASK_SCHEDULERS (comma-
    separated; empty: none, the work stays on this machine). Unset: any address, which suits the app on
    one's own machine; set it when others reach the server, or they could make it connect anywhere."""
    value = os.environ.get(ALLOWED_SCHEDULERS_ENV)
    if value is None:
        return None
    return [part.strip() for part in value.split(",") if part.strip()]


def where() -> tuple[int, str | None]:
    """(workers, Dask scheduler address or None) from the page's inputs; CompactionError when the address
    is not one this server may use."""
    scheduler = (st.session_state.get(SCHEDULER_KEY) or "").strip() or None
    allowed = allowed_schedulers()
    if scheduler is not None and allowed is not None and scheduler not in allowed:
        permitted = ", ".join(allowed) if allowed else "none: the work runs on this machine"
        raise CompactionError(f"Dask scheduler {scheduler} is not one this server may use "
                              f"({ALLOWED_SCHEDULERS_ENV}: {permitted})")
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
            stamps.append((item.relative, item.refused, info.st_size, info.st_mtime_ns))
        except OSError:
            stamps.append((item.relative, item.refused, None, None))
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
    if opened and opened[:2] == (source(), row["path"]) and state.loaded().key == opened[2]:
        return  # already on show
    item = next(found for found in files if found.relative == row["path"])
    if item.refused:
        raise CompactionError(f"{item.relative}: {item.refused}")
    new = loading.load_file(checked_path(item), item.relative)
    loading.prepared(new.key, new.conversation)
    state.set_loaded(new)
    st.session_state[_OPENED] = (source(), row["path"], new.key)
