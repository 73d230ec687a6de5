"""The Live page's state: which file is followed (its Follower lives in the browser session, so each rerun
reads only what was added since the last), the file asked for from the Sessions page, the agents' own
folders offered, and the what-if strategy of the sidebar.

What this browser may follow is dashboard.ui.client's `client_reach`, as on the Sessions page: on a
shared server only files inside COMPACTION_SESSION_FOLDERS (a path outside is refused by name, and the
follower checks the real path again before every read), and for a browser on another machine nothing
of the server's, the agents' folders included, unless that variable is set.
"""

from pathlib import Path, PurePosixPath

import streamlit as st

from compaction.live import Follower, Offered, agent_sessions, followable, rule_form, what_if
from compaction.strategies import lookup
from dashboard.ui.client import client_reach
from dashboard.ui.navigation import PAGES_DIR

PATH_KEY = "live_path"
PICKED_KEY = "live_picked"
WHAT_IF_KEY = "live_what_if"
_FOLLOWER = "_live_follower"
_ASKED = "_live_asked"  # a path the Sessions page asked the Live page to follow
NO_WHAT_IF = "none"


def follower() -> Follower | None:
    return st.session_state.get(_FOLLOWER)


def follow(text: str) -> Follower:
    """Start following a file (ConversationError naming it when it may not or cannot be followed); the
    file already followed is kept when it is the same, so nothing is read twice."""
    allowed = client_reach().allowed_folders()
    path = followable(text.strip(), allowed)
    current = follower()
    if current is not None and current.path == path and current.allowed == allowed:
        return current
    new = Follower(path, allowed=allowed)
    st.session_state[_FOLLOWER] = new
    return new


def stop() -> None:
    st.session_state.pop(_FOLLOWER, None)


def follow_button(folder: str, relative: str, key: str = "sessions_follow_live") -> None:
    """The Sessions page's control: follow the session at `relative` in the corpus `folder` on the Live page."""
    path = Path(folder, *PurePosixPath(relative).parts)
    if st.button("Follow it live", key=key, icon=":material/sensors:",
                 help="Open the Live page on this file: it reads what the agent adds as it writes it."):
        st.session_state[_ASKED] = str(path)
        st.switch_page(PAGES_DIR / "live.py")


def take_asked() -> str | None:
    """The path the Sessions page asked for, once."""
    return st.session_state.pop(_ASKED, None)


def offered() -> list[Offered]:
    """The newest logs in the agents' own folders of this machine's home, those this browser may follow
    (none for a browser on another machine unless COMPACTION_SESSION_FOLDERS names them)."""
    reach = client_reach()
    if reach.folders_refusal:
        return []
    return agent_sessions(Path.home(), reach.allowed_folders())


def what_if_controls() -> tuple[str, dict] | None:
    """The sidebar's what-if strategy and its one parameter (the rest at their defaults)."""
    st.sidebar.subheader("What-if strategy")
    name = st.sidebar.selectbox("Forecast also", (NO_WHAT_IF, *what_if()), key=WHAT_IF_KEY,
                                format_func=lambda choice: "nothing else" if choice == NO_WHAT_IF
                                else lookup(choice).label,
                                help="Another strategy's forecast on the same session: when it would compact, "
                                     "what it would keep and what it would cost.")
    if name == NO_WHAT_IF:
        return None
    param = lookup(name).param(rule_form(name).knob)
    label = f"{param.name} ({param.unit})"
    if param.kind == "float":
        value = st.sidebar.number_input(label, float(param.minimum), float(param.maximum), float(param.default),
                                        0.05, key=f"live_{name}_{param.name}", help=param.help)
    else:
        value = st.sidebar.number_input(label, int(param.minimum), int(param.maximum), int(param.default),
                                        1_000, key=f"live_{name}_{param.name}", help=param.help)
    return name, {param.name: value}
