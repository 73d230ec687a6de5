"""Pipeline page: how big the history is after each layer, and what happened to every message."""

import streamlit as st

from compaction.layers.fates import FATE_TEXT, message_fates
from compaction.layers.pipeline import LAYER_TITLES
from compaction.layers.pipeline_data import stage_rows
from compaction.storage.outputs import safe_name
from dashboard.render.charts import fate_strip_figure, waterfall_figure
from dashboard.render.html_report import report_html
from dashboard.render.narrative import fate_counts, l4_headline, layer_captions
from dashboard.render.pairs import pair_verdict
from dashboard.render.text import literal
from dashboard.render.units import UNIT_LABELS, convert, describe, percent
from dashboard.ui import state

CHART_CONFIG = {"displayModeBar": False}

result = state.result()
unit = state.unit()
model = result.stages[0].history.token_model
loaded = state.loaded()
first, final = result.stages[0], result.final

st.title("Pipeline")
st.caption(f"**{literal(loaded.label)}** through the four layers, cheapest first: L3 saves huge outputs to disk, "
           "L1 snips the middle, L2 swaps old tool results for placeholders, and only if the history is "
           "still over CONTEXT_LIMIT does L4 ask an LLM for a summary. The numbers are the tutorial's names for "
           "the layers, so they run in the order L3, L1, L2, L4: the ones that cost nothing first, the one that "
           "needs an extra AI call last.")

saved_share = 100 * result.saved / first.size if first.size else 0.0
l4_value, l4_help = l4_headline(result)
size_col, final_col, saved_col, l4_col = st.columns(4)
size_col.metric("Loaded", describe(first.size, unit, model), help=f"{first.count:,} messages")
final_col.metric("Sent to the model", describe(final.size, unit, model), help=f"{final.count:,} messages")
saved_col.metric("Saved", f"{saved_share:.1f} %", help=f"{describe(result.saved, unit, model)} removed")
l4_col.metric("L4 summary", l4_value, help=l4_help)
lost = state.pipeline_loss(result)
dropped_col, placeholder_col, kept_col, _ = st.columns(4)
dropped_col.metric("Dropped without a summary", f"{lost.dropped_messages:,} messages",
                   help=f"{describe(lost.dropped_chars, unit, model)}: what L1 snipped from the middle. L4 summarises "
                        "only what is left after L1, so these messages reach no summary.")
placeholder_col.metric("Tool results replaced", f"{len(result.placeholders):,}",
                       help="Old tool results L2 swapped for a one-line placeholder (their text is gone from what "
                            "is sent; the model is told it can run the tool again).")
kept_col.metric("Artifacts still sent", percent(lost.artifact_retention),
                help="Of the files read or written, errors seen and constraints the person stated in the loaded "
                     "conversation: the share still present word for word in what is sent.")
st.caption(f"L4: {l4_help}. What this costs over a whole session, with prompt caching, and which names the "
           "model then used without seeing them: the Replay page.")

verdict = pair_verdict(result, limit=10)
if verdict.level == "broken":
    st.error(f"**{verdict.headline}:** {literal(verdict.text)}"
             + "".join(f"\n- {literal(text)}" for text in verdict.problems), icon=":material/error:")
elif verdict.level == "intact":
    st.success(f"**{verdict.headline}:** {literal(verdict.text)}", icon=":material/check_circle:")
else:  # only what the loaded conversation already had: the Conversation page says what it means
    st.info(f"**{verdict.headline}** {literal(verdict.text)} The Conversation page explains it.",
            icon=":material/info:")

stem = safe_name(loaded.label.rsplit(".", 1)[0])
replay_later = state.replay_later()
st.download_button(
    "Download report", data=lambda: report_html(result, replay_later(), loaded.label, unit),
    file_name=f"{stem}_report.html", mime="text/html", on_click="ignore", icon=":material/description:",
    key="download_report",
    help="One HTML file to send: these settings, the charts, the replay and what changed. It opens in any "
         "browser, offline.")

st.subheader("Size after each layer")
log_scale = st.toggle("Logarithmic scale (to see the small steps beside a huge input)", key="waterfall_log")
st.plotly_chart(waterfall_figure(result, unit, log_scale), width="stretch", config=CHART_CONFIG, key="waterfall")
captions = layer_captions(result, unit)
for layer in ("L3", "L1", "L2", "L4"):
    st.markdown(f"**{LAYER_TITLES[layer]}.** {captions[layer]}")
if first.history.overhead:
    st.caption(f"Not drawn: {describe(first.history.overhead, unit, model)} of system prompt and tool definitions, "
               "which also count against CONTEXT_LIMIT.")

st.subheader("What happened to each message")
fates = message_fates(result)
roles = [message.get("role", "?") for message in first.messages]
st.plotly_chart(fate_strip_figure(fates, first.history.sizes, roles, unit), width="stretch",
                config=CHART_CONFIG, key="fate_strip")
st.caption("Messages, counted one by one (a message can hold several tool results) — " + " · ".join(f"{FATE_TEXT[fate]}: **{count:,}**"
                                     for fate, count in fate_counts(result).items()))

with st.expander("The numbers behind the chart"):
    rows = [{"stage": LAYER_TITLES[row["layer"]], "messages": row["messages"],
             f"size ({UNIT_LABELS[unit]})": convert(row["size"], unit, model),
             f"removed ({UNIT_LABELS[unit]})": convert(row["removed"], unit, model)} for row in stage_rows(result)]
    st.dataframe(rows, hide_index=True, width="stretch")
