"""Compare page: the four-layer pipeline beside two strategies from its peers, replayed on the same
conversation at the same settings."""

import streamlit as st

from compaction.strategies import STRATEGIES
from dashboard import state, timeline
from dashboard.navigation import page_setup
from dashboard.time_charts import strategies_figure

page_setup()

st.title("Compare strategies")
st.caption("Three ways to keep an agent's context small, each replayed over the whole loaded session at the "
           "sidebar's settings and the model window set on the Replay page "
           f"({state.model_window():,} tokens). Sizes are estimated tokens (characters / 4).")

for name in STRATEGIES:
    st.markdown(f"**{timeline.STRATEGY_TITLES[name]}.** {timeline.STRATEGY_SENTENCES[name]}")

with st.spinner("Replaying the session three times…"):
    replays = {name: state.replay_result(name, histories=False) for name in STRATEGIES}
if not next(iter(replays.values())).calls:
    st.info("This conversation has no assistant message, so the model is never called: nothing to compare.")
    st.stop()

st.subheader("Context size before each model call")
log_scale = st.toggle("Logarithmic scale", key="compare_log")
st.plotly_chart(strategies_figure(replays, log_scale), width="stretch", key="compare_chart",
                config={"displayModeBar": False})

st.subheader("Over the whole session")
st.dataframe(timeline.totals_frame(replays), hide_index=True, width="stretch", column_config={
    "strategy": st.column_config.TextColumn(width="medium"),
    "tokens sent": st.column_config.NumberColumn(format="localized",
                                                 help="All model calls together: what the input is billed on."),
    "saved vs no compaction": st.column_config.NumberColumn(format="percent"),
    "summaries": st.column_config.NumberColumn(help="LLM summaries written: each is one more (costly) call."),
    "peak context (tokens)": st.column_config.NumberColumn(format="localized",
                                                           help="The largest single call."),
    "tool output kept whole": st.column_config.TextColumn(
        help="Of all tool output the session produced, the share the model saw whole at least once."),
})
st.caption("KEEP_RECENT (sidebar) sets the masking window and CONTEXT_LIMIT (sidebar) when the summarising "
           f"strategies act; keep-last + summary always keeps the newest {state.settings().reactive_keep_last} "
           "messages (the tutorial's reactive compaction keeps as many).")
