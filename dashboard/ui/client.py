"""Whose browser this is: on this machine, or on another one. What each may reach of the server's
folders and schedulers is decided in compaction/access.py; this module only reads where the browser is.

Streamlit gives the address of the browser's connection (`st.context.ip_address`; None through
localhost). Behind a reverse proxy on this machine that address is the proxy's unless the proxy sends
X-Forwarded-For (the server trusts it only from loopback): without it every browser looks local.
"""

import streamlit as st

from compaction.access import Reach, is_local, reach


def client_address() -> str | None:
    """The browser's IP address as Streamlit gives it (None for a connection through localhost).

    The one place the address is read. AppTest cannot set `st.context.ip_address`, so tests of a browser on
    another machine replace this function (pytest's monkeypatch); nothing else does."""
    return st.context.ip_address


def client_reach() -> Reach:
    """What this browser may reach now (the variables are read at every call, the address too)."""
    return reach(remote=not is_local(client_address()))
