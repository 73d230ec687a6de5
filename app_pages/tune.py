"""Tune page: replay the session over a range of settings and see one measure, and every cell as a trade-off
of cost against loss. For a log of a known agent it starts from that agent's own knobs (dashboard/ui/
agent_tune.py: a line for one knob, a heatmap for two, a picked point exported in the agent's own form);
the tutorial pipeline's grid of two settings is the other choice, and the only one for other logs. For a
log with usage its axes are in tokens and span the agent's own regime (dashboard/render/tune_axes.py)."""

import streamlit as st

from dashboard.render import timeline
from dashboard.ui import agent_tune, export_panel, state, sweep_state, tune_view, tuning

st.title("Tune")
history = state.history()
agent = agent_tune.tuned_agent(state.loaded().conversation.format)
if agent is not None and agent_tune.chosen(agent):
    agent_tune.show(agent, history)
    st.stop()

st.caption("Which settings suit this session? Every cell is a replay of the whole session (see the Replay "
           "page) with two of the tutorial pipeline's settings changed; the colour shows the measure you pick. "
           "Click a cell to use its settings in the sidebar.")
unit = tune_view.axes_unit(history)
x_col, y_col = st.columns(2)
x_axis, y_axis = tuning.tune_axes_inputs(x_col, y_col, unit, history, state.model_window())
measure = tune_view.measure_box()

if x_axis.name == y_axis.name:
    st.error("Pick two different settings.")
    st.stop()
if x_axis.values is None or y_axis.values is None:
    st.stop()

current_settings = state.settings()
st.subheader(timeline.TUNE_MEASURES[measure])
place = st.empty()  # drawn as the cells come, then once more, clickable, when the grid is whole
result = tune_view.streamed(
    sweep_state.sweep_stream((x_axis.name, x_axis.values), (y_axis.name, y_axis.values)),
    len(x_axis.values) * len(y_axis.values), lambda filling: tune_view.heatmap_figure(
        filling, measure, x_axis, y_axis, tuning.current_cell(filling, current_settings)), place)
if result is None:
    st.stop()
tuning.show_grid(result)

current = tuning.current_cell(result, current_settings)
tune_view.heatmap(result, measure, x_axis, y_axis, current, place)
tune_view.against_paid(result, lambda name, value: {x_axis.name: x_axis, y_axis.name: y_axis}[name].phrase(value),
                       tuning.setting_name)
tune_view.why_flat(result, history, x_axis, y_axis, unit)
tune_view.agent_regime(history)
tune_view.trade_off(result, current)
tune_view.pick_boxes(x_axis, y_axis, current)
export_panel.show({"pipeline": {}}, key="tune")
