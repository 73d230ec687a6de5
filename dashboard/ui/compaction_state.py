"""The loaded log's compaction cards, made once per file and prices, with the agent's own preset replayed
beside them (the Compare page's replay of it, shared): for the Compactions page, the tour of your own
session and the report."""

from collections.abc import Callable

import streamlit as st

from compaction.compactions import CompactionCard, compaction_cards, own_preset, presets_beside
from compaction.measures import DEFAULT_PRICES
from dashboard.ui import state

_CARDS = "_compaction_cards"


def cards() -> list[CompactionCard]:
    loaded, history = state.loaded(), state.history()
    prices = state.prices()
    key = (loaded.key, prices)
    found = st.session_state.get(_CARDS)
    if found is not None and found[0] == key:
        return found[1]
    own = own_preset(loaded.conversation.format)
    beside = presets_beside(state.strategy_replay(own, {})) if own and history.recorded.boundaries else None
    made = compaction_cards(history, loaded.conversation.format, prices or DEFAULT_PRICES, beside)
    st.session_state[_CARDS] = (key, made)
    return made


def cards_later() -> Callable[[], list[CompactionCard]]:
    """The cards as a call to make later (a download's data is made outside the page's run): the cached ones
    when the page made them, else made without the preset's replay."""
    found = st.session_state.get(_CARDS)
    loaded, history = state.loaded(), state.history()
    if found is not None and found[0] == (loaded.key, state.prices()):
        return lambda: found[1]
    prices = state.prices() or DEFAULT_PRICES
    return lambda: compaction_cards(history, loaded.conversation.format, prices)
