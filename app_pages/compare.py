"""Compare page: what the tutorial's pipeline, Claude Code, the Anthropic API, LangChain and OpenHands
would each do to the loaded session, replayed side by side, each with its own parameters."""

import streamlit as st

from compaction.errors import SettingsError
from compaction.strategies import REGISTRY, build
from dashboard.render.compare_table import BEST, COLUMNS, compare_frame, idle_sentence
from dashboard.render.time_charts import strategies_figure
from dashboard.ui import compare_form, export_panel, state

st.title("Compare strategies")
st.caption("What would the system you use do to this session? Each strategy below is replayed over the whole "
           f"loaded session with its own parameters, under the model window set on the Replay page "
           f"({state.model_window():,} tokens); the sidebar's sliders apply to the other pages. Sizes are "
           "estimated tokens. The address bar keeps the choice and every parameter changed: copy it to share.")

chosen = compare_form.choose()
if not chosen:
    st.info("Pick at least one strategy to replay.")
    st.stop()

parameters, problems = {}, {}
with st.container(horizontal=True):
    for name in chosen:
        spec = REGISTRY[name]
        with st.popover(f"{spec.label}", icon=":material/tune:", help=f"Parameters of {spec.title}"):
            st.markdown(f"**{spec.title}**  \n{spec.description}")
            values = compare_form.parameter_form(name)
        try:
            parameters[name] = build(name, values).params
        except SettingsError as error:
            problems[name] = str(error)
for name, problem in problems.items():
    st.error(f"{REGISTRY[name].label} is left out: {problem}")
if not parameters:
    st.stop()

with st.spinner(f"Replaying the session {len(parameters)} times…"):
    replays = {name: state.strategy_replay(name, values) for name, values in parameters.items()}
if not next(iter(replays.values())).calls:
    st.info("This conversation has no assistant message, so the model is never called: nothing to compare.")
    st.stop()

st.subheader("Context size before each model call")
log_scale = st.toggle("Logarithmic scale", key="compare_log")
st.plotly_chart(strategies_figure(replays, log_scale), width="stretch", key="compare_chart",
                config={"displayModeBar": False})
if idle := idle_sentence(replays):
    st.caption(idle)

st.subheader("Over the whole session")
st.table(compare_frame(replays), hide_index=True)
st.caption(f"{BEST} best trade-off: no other strategy here sends fewer tokens while keeping more of the tool output "
           "whole. " + " ".join(f"**{c.title}**: {c.help}" for c in COLUMNS))
export_panel.show(parameters, key="compare")

st.subheader("Where each strategy comes from")
for name in replays:
    spec = REGISTRY[name]
    sources = "; ".join(f"[{s.label}]({s.url})" if s.url else s.label for s in spec.sources)
    lines = [f"**{spec.title}** (`{name}`). {spec.description}", f"Sources: {sources}."]
    if spec.reverse_engineered:
        lines.append("Known only from public reverse engineering: " + " ".join(spec.reverse_engineered))
    st.markdown("  \n".join(lines))
st.caption("Every strategy, its parameters and how the replay models it: docs/strategies.md, or "
           "`python -m compaction strategies` on the command line.")
