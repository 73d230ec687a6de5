"""The model window and the prices, on Replay and Compare: prices as the log says by default, or the
person's own as an override (then five inputs). Both pages draw the same keyed widgets, and
state.remembered keeps their values while the other page is on show."""

import streamlit as st

from compaction.measures import DEFAULT_PRICES
from dashboard.ui import state

PRICE_CHOICES = {state.AS_LOGGED: "As the log says", state.OWN_PRICES: "Set your own"}
PRICE_HELP = ("As the log says: each call at the price of the model its response names (the bundled price table, "
              "each row with its source and date), cache writes at the lifetime the log shows (5 minutes or 1 "
              "hour). A conversation that names no model is priced at today's defaults, and the page says so. "
              "Set your own: every call at the prices you type.")
INPUTS = (  # (price, label, step, help)
    ("input", "Input (US$ / M tokens)", 0.25, "US$ per million uncached input tokens."),
    ("output", "Output (US$ / M tokens)", 0.25, "US$ per million output tokens."),
    ("cache_write", "5-min write (× input)", 0.05, "Writing a token to the 5-minute prompt cache costs this many "
                                                   "times the input price (Anthropic: 1.25)."),
    ("cache_write_1h", "1-hour write (× input)", 0.05, "Writing a token to the 1-hour prompt cache costs this many "
                                                        "times the input price (Anthropic: 2)."),
    ("cache_read", "Cache read (× input)", 0.01, "Reading a token from the prompt cache costs this many times the "
                                                 "input price (Anthropic: 0.1)."),
)


def window_and_prices() -> None:
    """The model window, the price choice and, for your own prices, their inputs."""
    window_col, choice_col = st.columns([1, 2], vertical_alignment="bottom")
    own = state.log_model_window()
    changed = state.model_window_changed()
    window_col.number_input("Model window (tokens)" + (" · changed" if changed else ""), 1_000, 10_000_000,
                            state.model_window(), 1_000, key=state.model_window_key(), format="%d",
                            help="The most the model accepts in one call. Over it, the loop compacts reactively: "
                                 "it summarises all but the last messages and sends those. Without compaction "
                                 f"the agent stops at the first call over it. This log's own: {own.tokens:,} "
                                 f"({own.source}). A value you type stays with this file.")
    if changed:
        window_col.caption(f"Changed from the log's {own.tokens:,}.")
    modes = list(PRICE_CHOICES)
    choice_col.radio("Prices", modes, index=modes.index(state.price_mode()), format_func=PRICE_CHOICES.get,
                     key=state.PRICE_MODE_KEY, horizontal=True, help=PRICE_HELP)
    if state.price_mode() != state.OWN_PRICES:
        return
    prices = state.own_prices()
    for column, (name, label, step, help_text) in zip(st.columns(len(INPUTS)), INPUTS, strict=True):
        default = getattr(DEFAULT_PRICES, name)
        column.number_input(label, 0.0, 1_000.0, float(getattr(prices, name)), step, key=state.PRICE_KEYS[name],
                            help=f"{help_text} Default {default:g}.")
