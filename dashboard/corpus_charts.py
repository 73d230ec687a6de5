"""Charts of the corpus sweep (compaction.corpus.SweepAggregate.as_dict()): a heatmap of one measure's
median over sessions with the 90th percentile beside it, and the trade-off between a cost and a loss
measure, cell by cell. Plain functions to plotly figures, tested without a browser."""

import plotly.graph_objects as go

from compaction.sweep import MEASURES

from .corpus_tables import HIGHER_IS_BETTER, pareto_front
from .units import compact_number

MARGIN = {"t": 30, "b": 10, "l": 10, "r": 10}
POINT_COLOR = "#4c78a8"
FRONT_COLOR = "#e45756"


def measure_text(value, measure: str) -> str:
    if value is None:
        return "–"
    return f"{100 * value:.0f}%" if measure in HIGHER_IS_BETTER else compact_number(value)


def _labels(sweep: dict) -> tuple[list[str], list[str]]:
    return [f"{value:,}" for value in sweep["x"]["values"]], [f"{value:,}" for value in sweep["y"]["values"]]


def corpus_heatmap(sweep: dict, measure: str) -> go.Figure:
    """Colour: the median over sessions; each cell reads 'median' over 'p90 ...', the hover adds how
    many sessions had a value there. Darker is better."""
    statistics = sweep["measures"].get(measure) or {}
    xs, ys = _labels(sweep)
    empty = [[None] * len(xs) for _ in ys]
    medians, p90s = statistics.get("median", empty), statistics.get("p90", empty)
    counts = statistics.get("sessions", [[0] * len(xs) for _ in ys])
    text = [[f"{measure_text(median, measure)}<br>p90 {measure_text(p90, measure)}"
             for median, p90 in zip(median_row, p90_row, strict=True)]
            for median_row, p90_row in zip(medians, p90s, strict=True)]
    custom = [[[measure_text(median, measure), measure_text(p90, measure), count]
               for median, p90, count in zip(median_row, p90_row, count_row, strict=True)]
              for median_row, p90_row, count_row in zip(medians, p90s, counts, strict=True)]
    title = MEASURES.get(measure, measure)
    figure = go.Figure(go.Heatmap(
        z=[[float("nan") if value is None else value for value in row] for row in medians], x=xs, y=ys,
        text=text, texttemplate="%{text}", customdata=custom,
        colorscale="Blues" if measure in HIGHER_IS_BETTER else "Blues_r", colorbar={"title": {"text": "median"}},
        hovertemplate=(f"{sweep['x']['name']} %{{x}}<br>{sweep['y']['name']} %{{y}}<br>{title}<br>"
                       "median %{customdata[0]}, 90th percentile %{customdata[1]}<br>"
                       "over %{customdata[2]} sessions<extra></extra>")))
    figure.update_layout(height=480, margin=MARGIN,
                         xaxis={"title": sweep["x"]["name"].upper(), "type": "category"},
                         yaxis={"title": sweep["y"]["name"].upper(), "type": "category"})
    return figure


def tradeoff_figure(sweep: dict, cost: str, loss: str, statistic: str = "median") -> go.Figure:
    """Every cell as a point: `cost` across, `loss` up (their `statistic` over sessions); the cells no
    other cell beats on both are joined as the front."""
    xs, ys = sweep["x"]["values"], sweep["y"]["values"]
    cost_grid = sweep["measures"].get(cost, {}).get(statistic)
    loss_grid = sweep["measures"].get(loss, {}).get(statistic)
    points, labels = [], []
    for row, y_value in enumerate(ys):
        for column, x_value in enumerate(xs):
            x = cost_grid[row][column] if cost_grid else None
            y = loss_grid[row][column] if loss_grid else None
            if x is not None and y is not None:
                points.append((x, y))
                labels.append(f"{sweep['x']['name']} {x_value:,}, {sweep['y']['name']} {y_value:,}")
    figure = go.Figure(go.Scatter(
        x=[p[0] for p in points], y=[p[1] for p in points], mode="markers", name="a pair of settings",
        marker={"color": POINT_COLOR, "size": 10}, text=labels,
        hovertemplate=f"%{{text}}<br>{MEASURES.get(cost, cost)}: %{{x:,.3~f}}<br>{MEASURES.get(loss, loss)}: "
                      "%{y:,.3~f}<extra></extra>"))
    front = pareto_front(points, cost in HIGHER_IS_BETTER, loss in HIGHER_IS_BETTER)
    if front:
        figure.add_trace(go.Scatter(
            x=[points[i][0] for i in front], y=[points[i][1] for i in front], mode="lines+markers",
            name="best trade-offs (no other cell is better on both)", text=[labels[i] for i in front],
            line={"color": FRONT_COLOR, "width": 2}, marker={"color": FRONT_COLOR, "size": 12},
            hovertemplate="%{text}<extra>on the front</extra>"))
    figure.update_layout(height=440, margin=MARGIN, legend={"orientation": "h", "y": -0.2, "x": 0},
                         xaxis={"title": f"{MEASURES.get(cost, cost)} ({statistic} over sessions)",
                                "tickformat": ".0%" if cost in HIGHER_IS_BETTER else ",.0f"},
                         yaxis={"title": f"{MEASURES.get(loss, loss)} ({statistic} over sessions)",
                                "tickformat": ".0%" if loss in HIGHER_IS_BETTER else ",.0f"})
    return figure
