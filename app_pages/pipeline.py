"""Pipeline page: how big the history is after each layer, and what happened to every message."""

import streamlit as st

from compaction.layers import FATE_TEXT, LAYER_TITLES, message_fates, stage_rows
from compaction.storage import safe_name
from dashboard.render import log_view
from dashboard.render.charts import fate_strip_figure, waterfall_figure
from dashboard.render.html_report import report_html
from dashboard.render.narrative import fate_counts, layer_captions
from dashboard.render.pairs import pair_verdict
from dashboard.render.text import literal
from dashboard.render.units import UNIT_LABELS, convert, describe
from dashboard.ui import compaction_state, pass_view, state

CHART_CONFIG = {"displayModeBar": False}

loaded = state.loaded()
st.title("Pipeline")
st.caption(f"**{literal(loaded.label)}** through the four layers in one pass, cheapest first: L3 saves huge outputs "
           "to disk, L1 snips the middle, L2 swaps old tool results for placeholders, and only if the history is "
           "still over CONTEXT_LIMIT does L4 ask an LLM for a summary. The numbers are the tutorial's names for "
           "the layers, so they run in the order L3, L1, L2, L4: the ones that cost nothing first, the one that "
           "needs an extra AI call last. Over a whole session, call by call: the Replay page.")
view = pass_view.log_view_switch()
result = state.result()
unit = state.unit()
model = result.stages[0].history.token_model
first, final = result.stages[0], result.final
pass_view.headline(result, unit)

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
cards_later = compaction_state.cards_later()
view_note = log_view.view_sentence(view, unit)
st.download_button(
    "Download report", data=lambda: report_html(result, replay_later(), loaded.label, unit, view_note, cards_later()),
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
st.plotly_chart(fate_strip_figure(fates, first.history.sizes, roles, unit, model, first.history.origins), width="stretch",
                config=CHART_CONFIG, key="fate_strip")
st.caption("Messages, counted one by one (a message can hold several tool results) — " + " · ".join(f"{FATE_TEXT[fate]}: **{count:,}**"
                                     for fate, count in fate_counts(result).items()))

with st.expander("The numbers behind the chart"):
    rows = [{"stage": LAYER_TITLES[row["layer"]], "messages": row["messages"],
             f"size ({UNIT_LABELS[unit]})": convert(row["size"], unit, model),
             f"removed ({UNIT_LABELS[unit]})": convert(row["removed"], unit, model)} for row in stage_rows(result)]
    st.dataframe(rows, hide_index=True, width="stretch")
