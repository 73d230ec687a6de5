"""An upload kept in the server's workspace under its content's hash (compaction/storage/uploads.py), named
in the address bar (`?upload=<hash>`, and `&session=<line>` for one session of a file of several), so a
reload shows it again; and the picker of the sessions of a file that holds several."""

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import streamlit as st

from compaction.errors import CompactionError
from compaction.storage import keep_upload, kept_path, kept_upload
from dashboard.ui import loading

STORE_ROOT_ENV = "COMPACTION_STORE_ROOT"
UPLOAD_PARAM, SESSION_PARAM = "upload", "session"
WHOLE_FILE = "the whole file, as it loads by itself"


def store_root() -> Path:
    """Where the server keeps its sessions' folders and the uploads (private: mode 0700)."""
    return Path(os.environ.get(STORE_ROOT_ENV) or Path(tempfile.gettempdir()) / "compaction-lab")


def take(data: bytes, name: str) -> loading.Loaded:
    """An uploaded file, kept for a reload, and loaded (ConversationError when no format reads it: it is
    kept all the same, so nothing the person gave is lost)."""
    digest = keep_upload(store_root(), data, name)
    return loading.load_upload(data, name, kept=kept_path(store_root(), digest))


def restored() -> loading.Loaded | None:
    """The upload the address bar names, when the server keeps it; None otherwise."""
    digest = st.query_params.get(UPLOAD_PARAM)
    kept = kept_upload(store_root(), digest) if digest else None
    if kept is None:
        return None
    session = st.query_params.get(SESSION_PARAM)
    try:
        return loading.load_upload(*kept, int(session) if session and session.isdigit() else None,
                                   kept_path(store_root(), digest))
    except CompactionError:
        return None


def name_in_address(shown: loading.Loaded) -> None:
    """The address bar names the upload on show (and its session), and nothing once another is shown."""
    wanted = {UPLOAD_PARAM: shown.upload, SESSION_PARAM: None if shown.session is None else str(shown.session)}
    for param, value in wanted.items():
        if value is None:
            st.query_params.pop(param, None)
        elif st.query_params.get(param) != value:
            st.query_params[param] = value


def session_picker(shown: loading.Loaded, use: Callable[[loading.Loaded], None]) -> None:
    """For an upload holding several sessions (an evaluation's runs, a chat history's runs): a choice of
    one of them, or the whole file."""
    kept = kept_upload(store_root(), shown.upload) if shown.upload else None
    if kept is None:
        return
    data, name = kept
    path = kept_path(store_root(), shown.upload)
    sessions = loading.upload_sessions(shown.upload, name, str(path)) if path is not None else ()
    if not sessions:
        return
    options: list[int | None] = [None, *(key.line for key in sessions)]
    titles = {None: WHOLE_FILE, **{key.line: key.name for key in sessions}}
    chosen = st.selectbox(f"This file holds {len(sessions):,} sessions: show one of them", options,
                          index=options.index(shown.session) if shown.session in options else 0,
                          format_func=titles.get, key=f"upload_session_{shown.upload[:16]}")
    if chosen != shown.session:
        use(loading.load_upload(data, name, chosen, path))
        st.rerun()
