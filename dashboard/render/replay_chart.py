"""The Replay page's chart: the context each model call sends, with what it costs and loses beside it.

Top: what the simulated strategy sends, what the agent really sent when its log recorded usage, and the
uncompacted history until the model window refuses it (where the agent would stop). Bottom: a lane
per action that changed the history before a call, one for calls whose prompt no longer started with
the previous prompt (a layer broke the prompt cache), one for calls whose response named something
the model no longer saw. Every point carries its call (0-based) as customdata, so a click names it.
"""

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from compaction.replay import ReplayResult, call_number
from compaction.strategies import all_actions
from dashboard.render.time_charts import (
    ACTION_COLORS,
    LABEL_BACKGROUND,
    RAW_COLOR,
    RECORDED_COLOR,
    RECORDED_NAME,
    SENT_COLOR,
    STOP_COLOR,
    STOP_TEXT,
    limit_lines,
    log_compactions,
)
from dashboard.render.timeline import ACTION_TITLES

PARTING_COLOR = "#555555"
CACHE_LANE = "prompt cache broken by a layer"
BLIND_LANE = "response named what it no longer saw"
LANE_COLORS = {CACHE_LANE: "#e45756", BLIND_LANE: "#9d755d"}


def _lanes(result: ReplayResult) -> dict[str, list]:
    """Lane title -> the calls marked in it, in the order drawn from the top."""
    calls = result.calls
    lanes = {ACTION_TITLES[action]: [c for c in calls if action in c.acted]
             for action in all_actions() if any(action in c.acted for c in calls)}
    lanes[CACHE_LANE] = [c for c in calls if c.measures and c.measures.cache_broken]
    lanes[BLIND_LANE] = [c for c in calls if c.measures and c.measures.blind]
    return {title: marked for title, marked in lanes.items() if marked}


def replay_figure(result: ReplayResult, log_scale: bool = False) -> go.Figure:
    calls = result.calls
    numbers = [call_number(record.call) for record in calls]
    figure = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.74, 0.26], vertical_spacing=0.04)
    runs = [record for record in calls if record.raw_runs]
    figure.add_trace(go.Scatter(
        x=[call_number(r.call) for r in runs], y=[r.raw_tokens for r in runs], name="without compaction", mode="lines",
        line={"color": RAW_COLOR, "width": 2}, customdata=[r.call for r in runs],
        hovertemplate="call %{x}: %{y:,} tokens without compaction<extra></extra>"), row=1, col=1)
    figure.add_trace(go.Scatter(
        x=numbers, y=[record.tokens for record in calls], name="sent, with compaction", mode="lines+markers",
        line={"color": SENT_COLOR, "width": 2}, marker={"size": 5}, customdata=[record.call for record in calls],
        hovertemplate="call %{x}: %{y:,} tokens sent<extra>click to see this call's history</extra>"),
        row=1, col=1)
    recorded = [r for r in calls if r.measures and r.measures.recorded]
    if recorded:
        figure.add_trace(go.Scatter(
            x=[call_number(r.call) for r in recorded], y=[r.measures.recorded["context_tokens"] for r in recorded],
            name=RECORDED_NAME, mode="lines", line={"color": RECORDED_COLOR, "width": 2},
            customdata=[r.call for r in recorded],
            hovertemplate="call %{x}: %{y:,} tokens recorded in the log<extra></extra>"), row=1, col=1)
    stop = result.raw_stop_call
    if stop is not None:
        figure.add_trace(go.Scatter(
            x=[stop + 1], y=[result.model_window_tokens], mode="markers", name=STOP_TEXT,
            marker={"color": STOP_COLOR, "symbol": "x", "size": 12, "line": {"width": 2}}, customdata=[stop],
            hovertemplate=f"call %{{x}}: {STOP_TEXT}<extra></extra>"), row=1, col=1)
    lanes = _lanes(result)
    for title, marked in lanes.items():
        action = next((a for a, t in ACTION_TITLES.items() if t == title), None)
        figure.add_trace(go.Scatter(
            x=[call_number(r.call) for r in marked], y=[title] * len(marked), mode="markers", name=title,
            marker={"color": ACTION_COLORS.get(action) or LANE_COLORS[title], "symbol": "line-ns-open", "size": 12,
                    "line": {"width": 2}},
            customdata=[r.call for r in marked], showlegend=False,
            hovertemplate=f"call %{{x}}: {title}<extra></extra>"), row=2, col=1)
    peak = max((max(r.raw_tokens if r.raw_runs else 0, r.tokens) for r in calls), default=0)
    if recorded:
        peak = max(peak, max(r.measures.recorded["context_tokens"] for r in recorded))
    limit_lines(figure, result.settings.context_limit, result.model_window_tokens, peak, log_scale,
                result.token_model, result.overhead_chars, row=1, col=1)
    log_compactions(figure, result, peak, row=1, col=1)
    _parting(figure, result)
    figure.update_yaxes(title_text="context sent (tokens, with the overhead)", type="log" if log_scale else "linear",
                        row=1, col=1)
    figure.update_yaxes(categoryorder="array", categoryarray=list(reversed(lanes)), row=2, col=1)
    figure.update_xaxes(title_text="model call (one per assistant message)", row=2, col=1)
    # the legend under the chart: above it, it ran into the labels of the lines drawn near the top
    figure.update_layout(height=660, margin={"t": 30, "b": 10, "l": 10, "r": 10}, hovermode="closest",
                         clickmode="event+select",
                         legend={"orientation": "h", "y": -0.12, "yanchor": "top", "x": 0, "xanchor": "left"})
    return figure


PARTING_TEXT = "histories part: recorded tokens before, estimated after"


def _parting(figure: go.Figure, result: ReplayResult) -> None:
    """Where the strategy's history first differs from what the agent sent: before it every call's tokens
    are the ones the log recorded, after it they are estimated."""
    parting = result.parting_call
    if parting is None or not any(call.exact for call in result.calls):
        return
    figure.add_vline(x=parting + 0.5, line_dash="dot", line_color=PARTING_COLOR, line_width=2, row=1, col=1)
    # half-way up, clear of the lines' labels along the top and the limit's low down
    figure.add_annotation(x=parting + 0.5, xanchor="left", xshift=4, y=0.55, yref="y domain", text=PARTING_TEXT,
                          showarrow=False, font={"color": PARTING_COLOR}, bgcolor=LABEL_BACKGROUND, row=1, col=1)
