"""Values the person sets for one file: the model window, the prices, Compare's choice of strategies and
each strategy's parameters. They belong to the file they were set for: when another file is loaded they
go back to that file's own defaults, so nothing typed for one log is silently in force for the next. (The
sidebar's settings are the tutorial pipeline's and stay, as a shared link carries them; each one that
differs from the tutorial's says so.)"""

from collections.abc import Iterable

import streamlit as st

from dashboard.ui import compare_form


def forget(keys: Iterable[str], saved: dict) -> None:
    """Drop `keys` and every Compare control from the session (and from `saved`, the values kept for
    pages where the widgets are not drawn): the next page draws them at the new file's defaults."""
    dropped = set(keys)
    dropped.update(key for key in list(st.session_state.keys()) if compare_form.is_compare_key(str(key)))
    for key in dropped:
        st.session_state.pop(key, None)
        saved.pop(key, None)
    st.query_params.pop(compare_form.CHOICE_KEY, None)  # the address too, where the page wrote it


def set_by_you(value, default, shown: str | None = None) -> str | None:
    """'Set by you for this file (default 200,000).' when `value` differs from `default`, else None;
    `shown` words the default otherwise ("the log's own: 272,000")."""
    if value == default:
        return None
    default_text = shown if shown is not None else \
        f"default {default:,}" if isinstance(default, int) else f"default {default}"
    return f"Set by you for this file ({default_text})."
