"""The app's pages, and the run that shows one of them with the shared sidebar.

Every page file starts with `page_setup()`. A page reached without `app.py` (a shared link opened
first on a fresh server, which runs `pages/<name>.py` itself while a `pages/` folder exists, or
AppTest's `switch_page`) runs the whole app from there instead, so it gets the navigation and the
sidebar like any other visit.
"""

from pathlib import Path

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from dashboard import shell

PAGES_DIR = Path(__file__).resolve().parent.parent / "pages"


def _page(name: str, title: str, icon: str, **options) -> st.Page:
    # absolute, so the list resolves the same whichever script Streamlit started with
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
            _page("replay", title="Replay", icon=":material/timeline:"),
            _page("tune", title="Tune", icon=":material/tune:"),
            _page("compare", title="Compare", icon=":material/compare:"),
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
    with shell.drawn_by_entrypoint():
        navigation.run()


def page_setup() -> None:
    """The first call of every page: nothing when `app.py` runs the page, else the whole app."""
    if shell.drawn_by_entrypoint_now():
        return
    context = get_script_run_ctx()
    if context and Path(context.main_script_path).resolve().parent == PAGES_DIR:
        shell.sidebar()  # the page file itself was started as the app: there is no navigation to use
        return
    run_app()
    st.stop()  # the page has just been drawn inside run_app()
