"""Tune page: replay the session over a grid of two settings, see one measure as a heatmap and every cell
as a trade-off of cost against loss, and put the settings of any cell into the sidebar. For a log with
usage the axes are in tokens and span the agent's own regime (dashboard/render/tune_axes.py)."""

import streamlit as st

from compaction.errors import SettingsError
from dashboard.render import timeline
from dashboard.ui import export_panel, state, sweep_state, tune_view, tuning

st.title("Tune")
st.caption("Which settings suit this session? Every cell is a replay of the whole session (see the Replay "
           "page) with two settings changed; the colour shows the measure you pick. Click a cell to use its "
           "settings in the sidebar.")

history = state.history()
unit = tune_view.axes_unit(history)
x_col, y_col = st.columns(2)
x_axis, y_axis = tuning.tune_axes_inputs(x_col, y_col, unit, history, state.model_window())
measure_col, _ = st.columns([2, 1])
measure = measure_col.selectbox("Measure", list(timeline.TUNE_MEASURES), key="tune_measure",
                                format_func=timeline.TUNE_MEASURES.get,
                                help="Cost: the session's calls priced as the log says (or at your prices), prompt "
                                     "caching included. Blind references: names a response used that its call no "
                                     "longer sent. Artifacts: files, errors and constraints still sent at the end. "
                                     "Read from the cache: the share of input tokens. Peak context: the largest "
                                     "single call.")

if x_axis.name == y_axis.name:
    st.error("Pick two different settings.")
    st.stop()
if x_axis.values is None or y_axis.values is None:
    st.stop()
x_name, x_values, y_name, y_values = x_axis.name, x_axis.values, y_axis.name, y_axis.values

cells = len(x_values) * len(y_values)
current_settings = state.settings()
st.subheader(timeline.TUNE_MEASURES[measure])
place = st.empty()  # drawn as the cells come, then once more, clickable, when the grid is whole
bar = st.progress(0.0, text=f"Replaying the session for {cells:,} pairs of settings…")
try:
    for result in sweep_state.sweep_stream((x_name, x_values), (y_name, y_values)):
        if result.cells_done < result.cell_count:
            place.plotly_chart(tune_view.heatmap_figure(result, measure, x_axis, y_axis,
                                                        tuning.current_cell(result, current_settings)),
                               width="stretch", config={"displayModeBar": False})
            bar.progress(result.cells_done / cells, text=f"Replayed {result.cells_done:,} of {cells:,}…")
except SettingsError as error:
    bar.empty()
    st.error(str(error))
    st.stop()
bar.empty()
tuning.show_grid(result)

current = tuning.current_cell(result, current_settings)
tune_view.heatmap(result, measure, x_axis, y_axis, current, place)
tune_view.how_computed(result)
tune_view.why_flat(result, history, x_axis, y_axis, unit)
tune_view.agent_regime(history)
tune_view.trade_off(result, current)
tune_view.pick_boxes(x_axis, y_axis, current)
export_panel.show({"pipeline": {}}, key="tune")
