"""Replay page: the agent loop over the whole session, one point per model call (the sawtooth), with what
it sends, what the log recorded, what it costs with and without prompt caching, and what the model
loses; the history sent at any call."""

import streamlit as st

from compaction.measures.cost import DEFAULT_PRICES
from dashboard.render import tables, timeline
from dashboard.render.replay_chart import replay_figure
from dashboard.render.text import literal
from dashboard.render.units import UNIT_LABELS, percent
from dashboard.ui import export_panel, state
from dashboard.ui.probes_view import probe_section

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
           "real loop.")

window_col, input_col, output_col, write_col, read_col = st.columns(5)
window_col.number_input("Model window (tokens)", 1_000, 10_000_000, state.model_window(), 1_000,
                        key=state.MODEL_WINDOW_KEY,
                        help="The most the model accepts in one call. Over it, the loop compacts reactively: "
                             "it summarises all but the last messages and sends those.")
prices = state.prices()
input_col.number_input("Input price (US$ per million tokens)", 0.0, 1_000.0, float(prices.input), 0.25,
                       key=state.PRICE_KEYS["input"],
                       help=f"Default ${DEFAULT_PRICES.input:.2f}: a Sonnet-class list price; set your model's.")
output_col.number_input("Output price (US$ per million tokens)", 0.0, 1_000.0, float(prices.output), 0.25,
                        key=state.PRICE_KEYS["output"],
                        help=f"Default ${DEFAULT_PRICES.output:.2f}: a Sonnet-class list price for output tokens.")
write_col.number_input("Cache write (× input price)", 0.0, 10.0, float(prices.cache_write), 0.05,
                       key=state.PRICE_KEYS["cache_write"],
                       help="Writing a token to the 5-minute prompt cache costs this many times the input price "
                            "(Anthropic: 1.25).")
read_col.number_input("Cache read (× input price)", 0.0, 10.0, float(prices.cache_read), 0.01,
                      key=state.PRICE_KEYS["cache_read"],
                      help="Reading a token from the prompt cache costs this many times the input price (Anthropic: "
                           "0.1).")

loaded = state.loaded()
with st.spinner("Replaying the session…"):
    result = state.replay_result()
if not result.calls:
    st.info(f"**{literal(loaded.label)}** has no assistant message, so the model is never called: nothing to replay.")
    st.stop()
totals = result.totals
st.caption(timeline.tokens_sentence(result))

calls_col, sent_col, raw_col, recorded_col, summaries_col = st.columns(5)
calls_col.metric("Model calls", f"{totals['calls']:,}")
sent_col.metric("Tokens sent", f"{totals['tokens_sent']:,}", help="All calls together, with compaction.")
raw_col.metric("Without compaction", f"{totals['raw_tokens_sent']:,}",
               help="All calls together without compaction, counting only the calls the model window accepts.")
recorded_col.metric("Recorded in the log", "–" if totals["recorded_context_tokens"] is None
                    else f"{totals['recorded_context_tokens']:,}",
                    help="The tokens every call of the log recorded (input + cache writes + cache reads), with the "
                         "agent's own compactions.")
summaries_col.metric("Summaries", f"{totals['summaries']:,}",
                     help=f"L4 and reactive summaries; {totals['reactive']:,} reactive compaction(s).")

cost_col, raw_cost_col, hit_col, blind_col, kept_col = st.columns(5)
cost_col.metric("Cost with prompt caching", f"${totals['cost_usd']:,.2f}", f"${totals['cost_usd_no_cache']:,.2f} "
                "without caching", delta_color="off", delta_arrow="off",
                help="Per call: the prefix shared with the previous call's prompt is read from the cache, the "
                     "rest written; output tokens as recorded (else estimated); each summary is a call too.")
raw_cost_col.metric("Cost without compaction", f"${totals['raw_cost_usd']:,.2f}",
                    help="The same calls never compacted (the cache then reads all of the previous prompt), "
                         "counting only the calls the model window accepts.")
hit_col.metric("Read from the cache", percent(totals["cache_hit_rate"]),
               f"{totals['cache_breaks']:,} call(s) broke it", delta_color="off", delta_arrow="off",
               help="Of the input tokens after the first call. A layer that rewrites something old (a placeholder, "
                    "a snip, a summary) makes every later token a cache write again.")
blind_col.metric("Blind references", f"{totals['blind_references']:,}",
                 help="Names (files, functions, errors, URLs) a response used that appeared earlier but were no "
                      "longer in what its call sent.")
kept_col.metric("Artifacts still sent", percent(totals["artifact_retention"]),
                help="Of the files read or written, errors seen and constraints the person stated: the share "
                     "still present word for word in the last call.")
for note in (timeline.baseline_sentence(result), timeline.cache_check_sentence(result)):
    if note:
        st.caption(note)
if totals["over_window_calls"]:
    st.warning(f"{totals['over_window_calls']:,} call(s) were still over the model window after reactive "
               "compaction: the real API would have refused them.")

st.subheader("Context size before each model call")
log_scale = st.toggle("Logarithmic scale", key="replay_log",
                      help="Shows the compacted line beside a much bigger uncompacted one.")
st.plotly_chart(replay_figure(result, log_scale), width="stretch", key=CHART_KEY, on_select=show_clicked_call,
                selection_mode="points", config={"displayModeBar": False})
st.caption("Grey: what each call would send if nothing were ever compacted, until the model window refuses it "
           "(the red cross). Blue: what is sent. Orange, for a log with usage: what the agent really sent. The "
           "marks below show what changed the history before a call, the calls whose prompt cache a layer broke, "
           "and the calls that named something no longer in view. Click a point to see that call's history.")
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
measures = record.measures
st.markdown(f"**Call {call_number:,}** answers message {record.index:,} of the loaded conversation. Sent: "
            f"**{record.tokens:,} tokens** in {record.messages:,} messages (without compaction "
            f"{record.raw_tokens:,}"
            + (f"; the log recorded {measures.recorded['context_tokens']:,}" if measures and measures.recorded else "")
            + f"). Before it: {acted}. Summaries so far: {record.summaries:,}. Cache: "
            f"{measures.cache_read:,} tokens read, {measures.cache_write:,} written; cost ${measures.cost_usd:,.4f}.")
if record.blind_references:
    st.warning("This response named what the model no longer saw: "
               + ", ".join(f"`{literal(term)}`" for term in record.blind_references), icon=":material/visibility_off:")
st.dataframe(tables.message_frame(history, unit), hide_index=True, width="stretch", height=320,
             column_config={"size": st.column_config.NumberColumn(f"size ({UNIT_LABELS[unit]})", format="localized"),
                            "first line": st.column_config.TextColumn(width="large")})
st.caption("The messages sent at this call, as the loop had compacted them; 'index' is the position in what "
           "was sent.")
probe_section(state.history(), history, record)
export_panel.show({"pipeline": {}}, key="replay")
