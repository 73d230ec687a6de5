"""Replay page: the agent loop over the whole session, one point per model call (the sawtooth), with
totals, an estimated cost and the history sent at any call."""

import streamlit as st

from dashboard import state, tables, timeline
from dashboard.navigation import page_setup
from dashboard.text import literal
from dashboard.time_charts import replay_figure
from dashboard.units import UNIT_LABELS

page_setup()

CHART_KEY = "replay_chart"
CALL_KEY = "replay_call"


def show_clicked_call() -> None:
    """Chart selection callback: the clicked call goes to the number input (before it is drawn again)."""
    clicked = timeline.call_from_selection(st.session_state.get(CHART_KEY))
    if clicked is not None:
        st.session_state[CALL_KEY] = clicked + 1

st.title("Replay")
st.caption("The agent loop, call by call: before every model call (every assistant message) the four layers "
           "run on the history so far, and what they leave becomes the history from then on, as in the "
           "real loop. Sizes are estimated tokens (characters / 4), what a model is billed for.")

window_col, input_col, output_col = st.columns(3)
window_col.number_input("Model window (tokens)", 1_000, 10_000_000, state.model_window(), 1_000,
                        key=state.MODEL_WINDOW_KEY,
                        help="The most the model accepts in one call. Over it, the loop compacts reactively: "
                             "it summarises all but the last messages and sends those.")
input_price = input_col.number_input(
    "Input price (US$ per million tokens)", 0.0, 1_000.0, timeline.INPUT_PRICE, 0.25, key="replay_input_price",
    help=f"Default ${timeline.INPUT_PRICE:.2f}: a Sonnet-class list price for input tokens; "
         "set your model's price.")
output_price = output_col.number_input(
    "Output price (US$ per million tokens)", 0.0, 1_000.0, timeline.OUTPUT_PRICE, 0.25, key="replay_output_price",
    help=f"Default ${timeline.OUTPUT_PRICE:.2f}: a Sonnet-class list price for output tokens, used for "
         "the summaries (counted at their maximum length).")

loaded = state.loaded()
with st.spinner("Replaying the session…"):
    result = state.replay_result()
if not result.calls:
    st.info(f"**{literal(loaded.label)}** has no assistant message, so the model is never called: nothing to replay.")
    st.stop()
totals = result.totals
with_cost, without_cost = timeline.estimated_cost(result, input_price, output_price)
saved = 1 - totals["tokens_sent"] / totals["raw_tokens_sent"] if totals["raw_tokens_sent"] else 0.0

calls_col, summaries_col, sent_col, raw_col, cost_col = st.columns(5)
calls_col.metric("Model calls", f"{totals['calls']:,}")
summaries_col.metric("Summaries", f"{totals['summaries']:,}",
                     help=f"L4 and reactive summaries; {totals['reactive']:,} reactive compaction(s).")
sent_col.metric("Tokens sent", f"{totals['tokens_sent']:,}", f"-{100 * saved:.0f} %", delta_color="inverse",
                help="All calls together, with compaction.")
raw_col.metric("Without compaction", f"{totals['raw_tokens_sent']:,}")
cost_col.metric("Estimated cost", f"${with_cost:,.2f}", f"${without_cost:,.2f} without", delta_color="off",
                delta_arrow="off",
                help="Context tokens sent × input price, plus each summary at its maximum length × output price.")
if totals["over_window_calls"]:
    st.warning(f"{totals['over_window_calls']:,} call(s) were still over the model window after reactive "
               "compaction: the real API would have refused them.")

st.subheader("Context size before each model call")
log_scale = st.toggle("Logarithmic scale", key="replay_log",
                      help="Shows the compacted line beside a much bigger uncompacted one.")
st.plotly_chart(replay_figure(result, log_scale), width="stretch", key=CHART_KEY, on_select=show_clicked_call,
                        selection_mode="points", config={"displayModeBar": False})
st.caption("Grey: what each call would send if nothing were ever compacted. Blue: what is sent. The marks "
           "below show what changed the history before a call. Click a point to see that call's history.")
if result.boundaries:
    where = ", ".join(f"before call {b['call'] + 1}" if b["call"] is not None else "after the last call"
                      for b in result.boundaries)
    st.info(f"Purple lines: where Claude Code itself compacted this session ({where}), to compare with what "
            "the tutorial's pipeline does at these settings.", icon=":material/compare_arrows:")

# the newest call at first; kept within range when another conversation has fewer calls
st.session_state[CALL_KEY] = min(max(1, st.session_state.get(CALL_KEY, len(result.calls))), len(result.calls))
call_number = st.number_input(f"Model call to inspect (1–{len(result.calls):,})", 1, len(result.calls),
                              key=CALL_KEY,
                              help="Or click a point of the chart. Keyboard: type a number or use the arrows.")
record = result.calls[call_number - 1]
history = result.history(record.call)
unit = state.unit()
acted = ", ".join(timeline.ACTION_TITLES[action] for action in record.acted) or "nothing: the history fitted"
st.markdown(f"**Call {call_number:,}** answers message {record.index:,} of the conversation. Sent: "
            f"**{record.tokens:,} tokens** in {record.messages:,} messages (without compaction "
            f"{record.raw_tokens:,}). Before it: {acted}. Summaries so far: {record.summaries:,}.")
st.dataframe(tables.message_frame(history, unit), hide_index=True, width="stretch", height=320,
             column_config={"size": st.column_config.NumberColumn(f"size ({UNIT_LABELS[unit]})", format="localized"),
                            "first line": st.column_config.TextColumn(width="large")})
st.caption("The messages sent at this call, as the loop had compacted them; 'index' is the position in what "
           "was sent.")
