"""Tune's trade-off view: every cell of a sweep as a point, its cost against what the model loses, with
the cells no other beats on both joined up (the Pareto front). A click on a point applies its settings."""

import plotly.graph_objects as go

from compaction.measures import MEASURES
from compaction.sweep import SweepResult
from dashboard.render.time_charts import MARGIN, cell_text
from dashboard.render.tune_notes import Label, cell_words, value_label

POINT_COLOR = "#9ecae1"
FRONT_COLOR = "#08519c"


def tradeoff_figure(result: SweepResult, cost: str = "cost_usd", loss: str = "blind_references",
                    current: tuple[int, int] | None = None, label: Label = value_label,
                    current_name: str = "current settings", current_words: str = "the sidebar's current settings"
                    ) -> go.Figure:
    """`label(axis, value)` writes a cell's values on hover as the page's axes do; `current` is the cell
    marked, `current_name` its legend, `current_words` its hover."""
    one, other = ("a pair of settings", "pair") if result.y_name is not None else ("a setting", "setting")
    cells = [(r, c) for r in range(result.rows) for c in range(len(result.x_values))]
    front = result.trade_off_front(cost, loss)
    values = {(r, c): (result.cells[r][c][cost], result.cells[r][c][loss]) for r, c in cells}
    drawn = [cell for cell in cells if None not in values[cell]]

    def hover(cell: tuple[int, int]) -> str:
        r, c = cell
        return (f"{cell_words(result, r, c, label)}<br>{MEASURES[cost].label}: {cell_text(values[cell][0], cost)}<br>"
                f"{MEASURES[loss].label}: {cell_text(values[cell][1], loss)}")

    figure = go.Figure()
    figure.add_trace(go.Scatter(
        x=[values[cell][0] for cell in drawn], y=[values[cell][1] for cell in drawn], mode="markers",
        name=one, customdata=drawn, text=[hover(cell) for cell in drawn],
        marker={"size": 11, "color": [FRONT_COLOR if cell in front else POINT_COLOR for cell in drawn]},
        hovertemplate="%{text}<extra>click to use these settings</extra>"))
    on_front = sorted((cell for cell in drawn if cell in front), key=lambda cell: values[cell])
    figure.add_trace(go.Scatter(
        x=[values[cell][0] for cell in on_front], y=[values[cell][1] for cell in on_front], mode="lines",
        name=f"no other {other} does better on both", line={"color": FRONT_COLOR, "width": 2}, hoverinfo="skip"))
    if current is not None and current in values and None not in values[current]:
        figure.add_trace(go.Scatter(
            x=[values[current][0]], y=[values[current][1]], mode="markers", name=current_name,
            customdata=[current], marker={"symbol": "square-open", "size": 18, "color": "black", "line": {"width": 3}},
            hovertemplate=f"{current_words}<extra></extra>"))
    figure.update_layout(height=460, margin=MARGIN, hovermode="closest", clickmode="event+select",
                         xaxis={"title": MEASURES[cost].label, "tickformat": "$,.2f" if cost.startswith("cost") else ","},
                         yaxis={"title": MEASURES[loss].label, "tickformat": ".0%" if loss == "artifact_retention" else ","},
                         legend={"orientation": "h", "y": 1.08, "x": 0})
    return figure
