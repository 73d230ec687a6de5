"""Replay page: the agent loop over the whole session, one point per model call (the sawtooth), with what
it sends set beside no compaction over the same calls, what the session really cost according to its log,
how far the what-if follows the log's own compactions, and the history sent at any call."""

import streamlit as st

from compaction.replay import call_number
from dashboard.render import timeline
from dashboard.render.replay_chart import replay_figure
from dashboard.render.text import literal
from dashboard.ui import composition_view, export_panel, replay_view, state
from dashboard.ui.price_controls import window_and_prices

CHART_KEY = "replay_chart"


def show_clicked_call() -> None:
    """Chart selection callback: the clicked call goes to the number input (before it is drawn again)."""
    clicked = timeline.call_from_selection(st.session_state.get(CHART_KEY))
    if clicked is not None:
        st.session_state[replay_view.CALL_KEY] = clicked + 1


st.title("Replay")
st.caption("The agent loop, call by call: before every model call (every assistant message) the four layers "
           "run on the history so far, and what they leave becomes the history from then on, as in the "
           "real loop. Tokens are counted with the overhead (the system prompt and tools every call sends).")
window_and_prices()

loaded = state.loaded()
with st.spinner("Replaying the session…"):
    result = state.replay_result()
if not result.calls:
    st.info(f"**{literal(loaded.label)}** has no assistant message, so the model is never called: nothing to replay.")
    st.stop()
replay_view.headline(result)

st.subheader("Context size before each model call")
log_scale = st.toggle("Logarithmic scale", key="replay_log",
                      help="Shows the compacted line beside a much bigger uncompacted one.")
st.plotly_chart(replay_figure(result, log_scale), width="stretch", key=CHART_KEY, on_select=show_clicked_call,
                selection_mode="points", config={"displayModeBar": False})
st.caption("Grey: what each call would send if nothing were ever compacted, until the model window refuses it "
           "(the red cross). Blue: what is sent. Orange, for a log with usage: what the agent really sent. The "
           "dotted line, for a log with usage: where the histories part (before it the tokens are the recorded "
           "ones, after it estimated). The marks below show what changed the history before a call, the calls "
           "whose prompt cache a layer broke, and the calls that named something no longer in view. Click a "
           "point to see that call's history.")
if result.boundaries:
    where = ", ".join(f"before call {call_number(b['call'])}" if b["call"] is not None else "after the last call"
                      for b in result.boundaries)
    st.info(f"Purple lines: where the agent itself compacted this session ({where}), to compare with what "
            "the tutorial's pipeline does at these settings.", icon=":material/compare_arrows:")
composition_view.replay_section(result)
replay_view.fidelity_section(result)
replay_view.call_section(result)
export_panel.show({"pipeline": {}}, key="replay")
