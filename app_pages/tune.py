"""Tune page: replay the session over a grid of two settings, see one measure as a heatmap and every cell
as a trade-off of cost against loss, and put the settings of any cell into the sidebar."""

import streamlit as st

from compaction.errors import SettingsError
from compaction.measures.registry import MEASURES
from dashboard.render import timeline
from dashboard.render.time_charts import sweep_heatmap
from dashboard.render.tradeoff_chart import tradeoff_figure
from dashboard.ui import export_panel, state, tuning

SPECS = {spec.field: spec for spec in state.SLIDERS}


st.title("Tune")
st.caption("Which settings suit this session? Every cell is a replay of the whole session (see the Replay "
           "page) with two settings changed; the colour shows the measure you pick. Click a cell to use its "
           "settings in the sidebar.")

x_col, y_col, measure_col = st.columns(3)
x_name, x_values, y_name, y_values = tuning.axes_inputs(x_col, y_col, "tune", timeline.DEFAULT_AXES)
measure = measure_col.selectbox("Measure", list(timeline.TUNE_MEASURES), key="tune_measure",
                                format_func=timeline.TUNE_MEASURES.get,
                                help="Cost: the session's calls at the Replay page's prices, prompt caching included. "
                                     "Blind references: names a response used that its call no longer sent. "
                                     "Artifacts: files, errors and constraints still sent at the end. Read from "
                                     "the cache: the share of input tokens. Peak context: the largest single call.")

if x_name == y_name:
    st.error("Pick two different settings.")
    st.stop()
if x_values is None or y_values is None:
    st.stop()

cells = len(x_values) * len(y_values)
current_settings = state.settings()
title = timeline.TUNE_MEASURES[measure]
st.subheader(title)
heatmap = st.empty()  # drawn as the cells come, then once more, clickable, when the grid is whole
bar = st.progress(0.0, text=f"Replaying the session for {cells:,} pairs of settings…")
try:
    for result in state.sweep_stream((x_name, x_values), (y_name, y_values)):
        if result.cells_done < result.cell_count:
            heatmap.plotly_chart(sweep_heatmap(result, measure, title, tuning.current_cell(result, current_settings)),
                                 width="stretch", config={"displayModeBar": False})
            bar.progress(result.cells_done / cells, text=f"Replayed {result.cells_done:,} of {cells:,}…")
except SettingsError as error:
    bar.empty()
    st.error(str(error))
    st.stop()
bar.empty()
tuning.show_grid(result)

current = tuning.current_cell(result, current_settings)
heatmap.plotly_chart(sweep_heatmap(result, measure, title, current), width="stretch", key=tuning.HEATMAP_KEY,
                     on_select=tuning.apply_clicked_cell, selection_mode="points", config={"displayModeBar": False})
where = ("The black square marks the sidebar's settings." if current is not None else
         f"The sidebar's settings ({x_name} {getattr(current_settings, x_name):,}, {y_name} "
         f"{getattr(current_settings, y_name):,}) are not on this grid.")
st.caption(f"{where} Colour: {MEASURES[measure].darker}; each measure is one side "
           "of a trade-off (see below). '–' means the session has nothing to measure there. "
           f"{result.replays:,} replays ran; the other cells had the same outcome as one of them.")

st.subheader("Cost against what the model loses")
loss_col, _ = st.columns([1, 2])
loss = loss_col.selectbox("Loss to weigh against the cost", ("blind_references", "artifact_retention"),
                          key="tune_loss", format_func=timeline.TUNE_MEASURES.get)
st.plotly_chart(tradeoff_figure(result, "cost_usd", loss, current), width="stretch", key=tuning.TRADE_OFF_KEY,
                on_select=tuning.apply_clicked_point, selection_mode="points",
                config={"displayModeBar": False})
front = result.trade_off_front("cost_usd", loss)
st.caption(f"Each point is one pair of settings. The dark points, joined by the line, are the {len(front):,} pairs "
           "that no other pair beats on both cost and loss: cheaper ones lose more, and the others cost more or "
           "lose more for nothing. Click a point to use its settings.")

st.markdown("**Use a cell's settings** (the same as clicking it):")
pick_x, pick_y, pick_button = st.columns(3, vertical_alignment="bottom")
column = pick_x.selectbox(SPECS[x_name].key, range(len(x_values)), format_func=lambda i: f"{x_values[i]:,}",
                          index=current[1] if current else 0, key="tune_pick_x")
row = pick_y.selectbox(SPECS[y_name].key, range(len(y_values)), format_func=lambda i: f"{y_values[i]:,}",
                       index=current[0] if current else 0, key="tune_pick_y")
pick_button.button("Apply to the sidebar", on_click=tuning.apply_cell, args=(row, column), key="tune_apply",
                   icon=":material/check:", type="primary")

export_panel.show({"pipeline": {}}, key="tune")
