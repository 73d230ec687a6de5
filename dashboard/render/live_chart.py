"""The Live page's chart (no Streamlit): the context each model call of the followed log carried, the
agent's compaction threshold (and a what-if's), the agent's own compactions, and the path to the next
compaction at the recent growth per call."""

import plotly.graph_objects as go

from compaction.live import Forecast, LiveSession
from dashboard.render.time_charts import BOUNDARY_COLOR, BOUNDARY_NAME, RECORDED_COLOR

THRESHOLD_COLOR = "#e45756"
WHAT_IF_COLOR = "#4c78a8"
SHOWN_CALLS = 2_000  # the newest calls drawn: a session of hours stays quick to draw


def live_figure(session: LiveSession, agent: Forecast, what_if: Forecast | None = None) -> go.Figure:
    total = len(session.calls)
    start = max(total - SHOWN_CALLS, 0)
    numbers = list(range(start + 1, total + 1))
    figure = go.Figure()
    figure.add_trace(go.Scatter(x=numbers, y=session.calls.contexts(start), name="context of each call (recorded)",
                                mode="lines+markers", line={"color": RECORDED_COLOR, "width": 2}, marker={"size": 4},
                                hovertemplate="call %{x}: %{y:,} tokens<extra></extra>"))
    ahead = total + (agent.calls_left or 0)
    for forecast, color, name in ((agent, THRESHOLD_COLOR, "the agent compacts here"),
                                  (what_if, WHAT_IF_COLOR, "the what-if compacts here")):
        if forecast is None:
            continue
        figure.add_trace(go.Scatter(x=[numbers[0] if numbers else 1, max(ahead, total) + 1],
                                    y=[forecast.threshold] * 2, name=f"{name}: {forecast.label}", mode="lines",
                                    line={"color": color, "dash": "dash", "width": 1.5},
                                    hovertemplate=f"{forecast.label}: %{{y:,}} tokens<extra></extra>"))
    if agent.calls_left and agent.tokens_now is not None and total:
        figure.add_trace(go.Scatter(x=[total, total + agent.calls_left], y=[agent.tokens_now, agent.threshold],
                                    name="at the recent growth per call", mode="lines",
                                    line={"color": THRESHOLD_COLOR, "dash": "dot", "width": 1},
                                    hovertemplate="about call %{x}: %{y:,} tokens<extra></extra>"))
    top = max([*session.calls.contexts(start), agent.threshold, *([what_if.threshold] if what_if else [])], default=1)
    drawn = [compaction.calls_before + 0.5 for compaction in session.compactions if compaction.calls_before >= start]
    for x in drawn:
        figure.add_vline(x=x, line={"color": BOUNDARY_COLOR, "width": 1.5})
    if drawn:  # the lines themselves have no legend entry: a marker on each, named once
        figure.add_trace(go.Scatter(x=drawn, y=[top * 1.04] * len(drawn), mode="markers", name=BOUNDARY_NAME,
                                    marker={"color": BOUNDARY_COLOR, "symbol": "triangle-down", "size": 10},
                                    hovertemplate="the agent compacted after call %{x:.0f}<extra></extra>"))
    figure.update_layout(height=400, margin={"l": 10, "r": 10, "t": 10, "b": 10}, hovermode="closest",
                         legend={"orientation": "h", "y": -0.22}, xaxis_title="model call", yaxis_title="tokens",
                         yaxis_range=[0, top * 1.08])
    return figure
