"""Live page: follow an agent's log while it is written (any agent that registers a live reader), and see how
far its next compaction is and what it will cost; the view updates by itself (dashboard/ui/live_view.py)."""

from datetime import datetime

import streamlit as st

from compaction.corpus import agent_homes
from compaction.errors import CompactionError
from compaction.live import document_format, titles
from dashboard.render.text import literal
from dashboard.ui import live_state
from dashboard.ui.client import client_reach
from dashboard.ui.live_view import EVERY_SECONDS, live_view

st.title("Live")
st.caption("Follow a session while the agent writes it: every new model call, the tokens in context now, how "
           "far the agent's next compaction is (its own rule, in tokens and in calls at the recent growth), what "
           f"it will drop or summarise and what it will cost. The view reads what was added every "
           f"{EVERY_SECONDS:g} seconds, never the file again from the start.")
what_if = live_state.what_if_controls()


def start(text: str, shown: bool = True) -> None:
    """Follow `text`; `shown=False` when the path field is not drawn yet, so it can show the path."""
    if not shown:
        st.session_state[live_state.PATH_KEY] = text
    try:
        live_state.follow(text)
    except CompactionError as error:
        st.error(literal(str(error)))


asked = live_state.take_asked()
if asked:
    start(asked, shown=False)

offered = live_state.offered()
if offered:
    now = datetime.now().timestamp()
    picked = st.selectbox(
        "Sessions on this machine, newest first", range(len(offered)), key=live_state.PICKED_KEY,
        format_func=lambda i: f"{offered[i].agent}: {offered[i].path.parent.name}/{offered[i].path.name} "
                              f"({(now - offered[i].modified) / 60:,.0f} min ago, {offered[i].size / 1e6:,.1f} MB)",
        help="The newest logs in " + ", ".join(home.shown for home in agent_homes()) + ".")
    if st.button("Follow this session", key="live_follow_picked", icon=":material/sensors:"):
        start(str(offered[picked].path), shown=False)
reach = client_reach()
if reach.folders_refusal:  # the field stays: a path typed is refused with the same sentence
    st.info(reach.folders_refusal, icon=":material/lock:")
elif reach.folders is not None:
    st.caption("This server follows sessions only in: " + (", ".join(literal(str(base)) for base in reach.folders)
                                                           or "no folder"))
recording = document_format()
typed = st.text_input("Session file", key=live_state.PATH_KEY, placeholder=f"{agent_homes()[0].shown}/<dir>/<session>.jsonl",
                      help=f"A {titles()} log: .jsonl" + (f", or a {recording.title} .json recording." if recording
                                                           else "."))
follow_col, stop_col = st.columns([1, 5])
if follow_col.button("Follow", key="live_follow", type="primary", icon=":material/play_arrow:") and typed.strip():
    start(typed)
if live_state.follower() is not None:
    stop_col.button("Stop following", key="live_stop", on_click=live_state.stop, icon=":material/stop:")

if live_state.follower() is None:
    if not reach.folders_refusal:
        st.info("Choose a session to follow: type its path, pick one above, or use **Follow it live** on the "
                "Sessions page.", icon=":material/info:")
    st.stop()
live_view(what_if)
