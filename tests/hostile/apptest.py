"""Driving the dashboard with AppTest for the hardening tests: start, upload, read what is shown."""

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parents[2]
UPLOAD_KEY = "conversation_upload"
STORE_KEY = "_output_store"
TIMEOUT = 120


def start_app() -> AppTest:
    return AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT).run()


def upload(at: AppTest, name: str, data: bytes) -> AppTest:
    mime = "application/x-ndjson" if name.endswith(".jsonl") else "application/json"
    return at.file_uploader(key=UPLOAD_KEY).set_value((name, data, mime)).run()


def loaded_header(at: AppTest) -> str:
    """The "Loaded: ..." header as a person reads it (markdown escapes removed)."""
    value = next(header.value for header in at.header if header.value.startswith("Loaded:"))
    return re.sub(r"\\(.)", r"\1", value)


def session_root(at: AppTest) -> Path:
    return at.session_state[STORE_KEY].root


def shown_text(at: AppTest) -> str:
    """Every string the page shows in its main elements (for searching, not for exact layout)."""
    parts = []
    for kind in ("markdown", "caption", "header", "subheader", "title", "error", "warning", "info",
                 "success", "code", "text", "json", "metric", "expander", "status"):
        for element in at.get(kind):
            for field in ("value", "label", "body"):
                value = getattr(element, field, None)
                if isinstance(value, str):
                    parts.append(value)
    for frame in at.dataframe:
        parts.append(frame.value.to_csv())
    return "\n".join(parts)
