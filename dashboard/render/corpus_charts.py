"""Charts of the corpus sweep (compaction.corpus.SweepAggregate.as_dict()): a heatmap of one measure's
median over sessions with the 90th percentile beside it, and the sweep of the median session, for Tune's
trade-off chart. Plain functions, tested without a browser."""

import plotly.graph_objects as go

from compaction.measures import MEASURES
from compaction.model import DEFAULTS
from compaction.sweep import SweepResult
from dashboard.render import heat_colors
from dashboard.render.time_charts import MARGIN, cell_text
from dashboard.render.tradeoff_chart import tradeoff_figure


def corpus_heatmap(sweep: dict, measure: str) -> go.Figure:
    """Colour: the median over sessions; each cell reads 'median' over 'p90 ...', the hover adds how
    many sessions had a value there. Darker is better."""
    statistics = sweep["measures"].get(measure) or {}
    xs = [f"{value:,}" for value in sweep["x"]["values"]]
    ys = [f"{value:,}" for value in sweep["y"]["values"]]
    empty = [[None] * len(xs) for _ in ys]
    medians, p90s = statistics.get("median", empty), statistics.get("p90", empty)
    counts = statistics.get("sessions", [[0] * len(xs) for _ in ys])
    text = [[f"{cell_text(median, measure)}<br>p90 {cell_text(p90, measure)}"
             for median, p90 in zip(median_row, p90_row, strict=True)]
            for median_row, p90_row in zip(medians, p90s, strict=True)]
    custom = [[[cell_text(median, measure), cell_text(p90, measure), count]
               for median, p90, count in zip(median_row, p90_row, count_row, strict=True)]
              for median_row, p90_row, count_row in zip(medians, p90s, counts, strict=True)]
    cells = [(r, c) for r in range(len(ys)) for c in range(len(xs))]
    figure = go.Figure(go.Heatmap(
        z=[[float("nan") if value is None else value for value in row] for row in medians], x=xs, y=ys,
        text=text, customdata=custom, colorscale=heat_colors.scale(measure),
        colorbar=heat_colors.colorbar(measure, "median"),
        hovertemplate=(f"{sweep['x']['name']} %{{x}}<br>{sweep['y']['name']} %{{y}}<br>{MEASURES[measure].label if measure in MEASURES else measure}"
                       "<br>median %{customdata[0]}, 90th percentile %{customdata[1]}<br>"
                       "over %{customdata[2]} sessions<extra></extra>")))
    # each cell's text in the colour that reads on it (heat_colors), over the cell
    figure.add_trace(go.Scatter(x=[xs[c] for _, c in cells], y=[ys[r] for r, _ in cells], mode="text",
                                text=[text[r][c] for r, c in cells], showlegend=False, hoverinfo="skip",
                                textfont={"color": heat_colors.text_colors([medians[r][c] for r, c in cells], measure)}))
    figure.update_layout(height=480, margin=MARGIN,
                         xaxis={"title": sweep["x"]["name"].upper(), "type": "category"},
                         yaxis={"title": sweep["y"]["name"].upper(), "type": "category"})
    return figure


def statistic_sweep(sweep: dict, statistic: str = "median") -> SweepResult:
    """The corpus sweep as one session's sweep whose every cell holds that statistic over sessions:
    what Tune's charts and clicks take."""
    x_values, y_values = sweep["x"]["values"], sweep["y"]["values"]
    cells = [[{name: grids[statistic][row][column] for name, grids in sweep["measures"].items()}
              for column in range(len(x_values))] for row in range(len(y_values))]
    return SweepResult(sweep["x"]["name"], x_values, sweep["y"]["name"], y_values, "peak_tokens", "pipeline",
                       DEFAULTS, cells)


def corpus_tradeoff(sweep: dict, cost: str, loss: str, statistic: str = "median") -> go.Figure:
    """Tune's trade-off chart over the median session (or another statistic): every pair of settings at
    its cost against its loss, the pairs no other beats on both joined."""
    figure = tradeoff_figure(statistic_sweep(sweep, statistic), cost, loss)
    figure.update_layout(xaxis_title=f"{MEASURES[cost].label} ({statistic} over sessions)",
                         yaxis_title=f"{MEASURES[loss].label} ({statistic} over sessions)")
    return figure
