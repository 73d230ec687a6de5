"""Compare page: what the agent really did (its log, and the "as recorded" strategy) beside what the tutorial's
pipeline, the agents' own rules, the Anthropic API and LangChain would each do to the loaded session,
replayed side by side, each with its own parameters (the pipeline with the sidebar's)."""

import streamlit as st

from dashboard.render.compare_table import idle_sentence
from dashboard.render.time_charts import strategies_figure
from dashboard.ui import compare_form, compare_view, export_panel, state
from dashboard.ui.price_controls import window_and_prices

st.title("Compare strategies")
st.caption("What would the system you use do to this session, and what did the agent really do? Each strategy "
           "is replayed over the whole loaded session with its own parameters; the tutorial pipeline follows the "
           "sidebar. Sizes are tokens with the overhead. The address bar keeps the choice and every parameter "
           "changed: copy it to share.")
window_and_prices()

chosen = compare_form.choose(state.loaded().conversation.format)
compare_view.catalog()
if not chosen:
    st.info("Pick at least one strategy to replay.")
    st.stop()
parameters = compare_view.parameters(chosen)
if not parameters:
    st.stop()

with st.spinner(f"Replaying the session {len(parameters)} times…"):
    replays = compare_view.replays(parameters)
reference = next(iter(replays.values()))
if not reference.calls:
    st.info("This conversation has no assistant message, so the model is never called: nothing to compare.")
    st.stop()
compare_view.truth_headline(reference)

st.subheader("Context size before each model call")
scale_col, bold_col = st.columns([1, 3], vertical_alignment="center")
log_scale = scale_col.toggle("Logarithmic scale", key="compare_log")
bold = compare_view.bold_lines(bold_col, list(replays), state.loaded().conversation.format)
st.plotly_chart(strategies_figure(replays, log_scale, bold=bold), width="stretch", key="compare_chart",
                config={"displayModeBar": False})
st.caption("Orange, for a log with usage: what the agent really sent (the 'as recorded' strategy's tokens are the "
           "log's), with purple lines where it compacted itself. Grey dots: no compaction, until the model window "
           "refuses a call (the red cross), as the table counts it. The lines picked above are drawn thick, the "
           "others thin; click a name in the legend to see its line alone, click it again to see them all.")
if idle := idle_sentence(replays):
    st.caption(idle)

compare_view.tables(replays, compare_view.row_labels(parameters))
export_panel.show(parameters, key="compare")
compare_view.sources(replays)
