"""The app's pages, and the run that shows one of them below the shared sidebar (as `streamlit hello` does).

Pages live in `app_pages/`, not `pages/`, so Streamlit runs `st.navigation` in its normal mode: every
visit, a shared link opened first on a fresh server included, runs the entrypoint, which draws the
sidebar and then the page the address names.
"""

from importlib.resources import files

import streamlit as st

from dashboard.ui import shell, sweep_state

# `app_pages/` of the checkout, installed as dashboard.app_pages (pyproject.toml)
PAGES_DIR = files("dashboard.app_pages")


def _page(name: str, title: str, icon: str, **options) -> st.Page:
    # absolute, so the list resolves the same whichever folder the app was started from
    return st.Page(PAGES_DIR / f"{name}.py", title=title, icon=icon, **options)


def app_pages() -> dict[str, list]:
    return {
        "Analyse": [
            _page("conversation", title="Conversation", icon=":material/forum:", default=True),
            _page("pipeline", title="Pipeline", icon=":material/waterfall_chart:"),
            _page("what_changed", title="What changed", icon=":material/difference:"),
            _page("persisted_outputs", title="Persisted outputs", icon=":material/save:"),
        ],
        "Over time": [
            _page("compactions", title="Compactions", icon=":material/compress:"),
            _page("replay", title="Replay", icon=":material/timeline:"),
            _page("tune", title="Tune", icon=":material/tune:"),
            _page("compare", title="Compare", icon=":material/compare:"),
            _page("live", title="Live", icon=":material/sensors:"),
        ],
        "Many sessions": [
            _page("sessions", title="Sessions", icon=":material/folder_open:"),
        ],
        "Demo": [
            _page("tour", title="Guided tour", icon=":material/tour:"),
        ],
    }


def run_app() -> None:
    st.set_page_config(page_title="Compaction Lab", page_icon=":material/compress:", layout="wide")
    navigation = st.navigation(app_pages())
    shell.sidebar()
    try:
        navigation.run()
    finally:  # also when the page stopped early (st.stop)
        sweep_state.start_workers()
