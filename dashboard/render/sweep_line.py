"""Tune's chart for a sweep of one knob: the measure against the knob's values, a point per value (a click
picks it), the agent's own default marked, and for the cost what the agent paid as its log records.
Plain functions to plotly figures, tested without a browser."""

from collections.abc import Sequence

import plotly.graph_objects as go

from compaction.measures import MEASURES
from compaction.sweep import SweepResult
from dashboard.render.time_charts import LABEL_BACKGROUND, MARGIN, RECORDED_COLOR, SENT_COLOR, cell_text

PAID_NAME = "what the agent paid (its log)"
AXIS_FORMATS = {"usd": "$,.2f", "share": ".0%", "tokens": ",", "characters": ",", "count": ","}


def sweep_line_figure(result: SweepResult, measure: str, labels: Sequence[str], x_title: str,
                      picked: int | None = None, default: int | None = None, default_name: str = "the default",
                      paid: float | None = None) -> go.Figure:
    """`result` of one axis; `labels` its values as written; `picked` and `default` are columns: the point
    on show (a black square) and the agent's own setting (a dotted line). `paid`: the log's recorded cost,
    drawn when the measure is the cost. A point's customdata is (row, column), as a heatmap cell's."""
    values = result.line(measure)
    xs = list(labels) if len(labels) == len(result.x_values) else [f"{value:,}" for value in result.x_values]
    unit = MEASURES[measure].unit
    figure = go.Figure(go.Scatter(
        x=xs, y=[float("nan") if value is None else value for value in values], mode="lines+markers",
        name=MEASURES[measure].label, customdata=[(0, column) for column in range(len(xs))],
        text=[cell_text(value, measure) for value in values], line={"color": SENT_COLOR, "width": 2},
        marker={"size": 12, "color": SENT_COLOR}, selected={"marker": {"opacity": 1}},
        unselected={"marker": {"opacity": 1}},
        hovertemplate=f"{x_title} %{{x}}<br>{MEASURES[measure].label}: %{{text}}<extra>click to use this "
                      "setting</extra>"))
    if default is not None and default < len(xs):
        figure.add_vline(x=default, line_dash="dot", line_color="#333333", annotation_text=default_name,
                         annotation_position="bottom left", annotation_bgcolor=LABEL_BACKGROUND)
    if paid is not None and measure == "cost_usd":
        figure.add_hline(y=paid, line_dash="dash", line_color=RECORDED_COLOR, annotation_text=f"{PAID_NAME}: "
                         f"{cell_text(paid, measure)}", annotation_position="bottom right",
                         annotation_font_color=RECORDED_COLOR)
    if picked is not None and picked < len(xs) and values[picked] is not None:
        figure.add_trace(go.Scatter(
            x=[xs[picked]], y=[values[picked]], mode="markers", name="exported below",
            customdata=[(0, picked)], marker={"symbol": "square-open", "size": 20, "color": "black",
                                              "line": {"width": 3}},
            hovertemplate="the setting exported below<extra></extra>"))
    figure.update_layout(height=420, margin=MARGIN, hovermode="closest", clickmode="event+select",
                         xaxis={"title": x_title, "type": "category"},
                         yaxis={"title": MEASURES[measure].label, "tickformat": AXIS_FORMATS.get(unit, ",")},
                         legend={"orientation": "h", "y": 1.1, "x": 0}, showlegend=True)
    return figure
