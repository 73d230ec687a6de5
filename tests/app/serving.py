"""Helpers of the serving-others tests (their fixtures, `remote_browser`, `agent_home` and `served_corpus`,
are in conftest.py): the agents' logs in a home, a corpus zipped for upload, and what the pages show."""

import io
import re
import zipfile
from pathlib import Path

CASES = Path(__file__).resolve().parents[1] / "live" / "cases"
CLAUDE_LOG = ".claude/projects/-home-dev-app/5f0e2c1a.jsonl"
CODEX_LOG = ".codex/sessions/2026/04/01/rollout-2026-04-01T00-01-07-019d47a1.jsonl"
AGENT_LOGS = ((CLAUDE_LOG, "claude_code_growing.jsonl"), (CODEX_LOG, "codex_growing.jsonl"))


def zipped(folder: Path) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as opened:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                opened.write(path, path.relative_to(folder).as_posix())
    return buffer.getvalue()


def shown(elements) -> list[str]:
    """The text of st.error / st.info elements as a person reads it (Markdown escapes removed)."""
    return [re.sub(r"\\(.)", r"\1", element.value) for element in elements]


def read_folder(at, folder):
    at.number_input(key="sessions_workers").set_value(1)
    at.text_input(key="sessions_folder").set_value(str(folder))
    return at.button(key="sessions_read").click().run()


def follow(at, path):
    at.text_input(key="live_path").set_value(str(path))
    return at.button(key="live_follow").click().run()


def session_rows(at) -> list[str]:
    """The paths of the Sessions page's table, [] when there is none."""
    frames = [frame.value for frame in at.dataframe if "session" in frame.value.columns]
    return list(frames[0]["path"]) if frames else []


def offered(at) -> list[str]:
    """The agents' sessions the Live page offers, as listed."""
    return [option for box in at.selectbox if box.key == "live_picked" for option in box.options]
