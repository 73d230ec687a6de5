"""The Replay page's chart: the context each model call sends, with what it costs and loses beside it.

Top: what the simulated strategy sends, what the agent really sent when its log recorded usage, and the
uncompacted history until the model window refuses it (where the agent would stop). Bottom: a lane
per action that changed the history before a call, one for calls whose prompt no longer started with
the previous prompt (a layer broke the prompt cache), one for calls whose response named something
the model no longer saw. Every point carries its call (0-based) as customdata, so a click names it.
"""

import html

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from compaction.replay.loop import ACTIONS, ReplayResult
from dashboard.render.time_charts import (
    ACTION_COLORS,
    BOUNDARY_COLOR,
    RAW_COLOR,
    RECORDED_COLOR,
    SENT_COLOR,
    limit_lines,
)
from dashboard.render.timeline import ACTION_TITLES

STOP_COLOR = "#e45756"
CACHE_LANE = "prompt cache broken by a layer"
BLIND_LANE = "response named what it no longer saw"
LANE_COLORS = {CACHE_LANE: "#e45756", BLIND_LANE: "#9d755d"}
STOP_TEXT = "without compaction the agent stops here: prompt too long"


def _lanes(result: ReplayResult) -> dict[str, list]:
    """Lane title -> the calls marked in it, in the order drawn from the top."""
    calls = result.calls
    lanes = {ACTION_TITLES[action]: [c for c in calls if action in c.acted]
             for action in ACTIONS if any(action in c.acted for c in calls)}
    lanes[CACHE_LANE] = [c for c in calls if c.measures and c.measures.cache_broken]
    lanes[BLIND_LANE] = [c for c in calls if c.measures and c.measures.blind]
    return {title: marked for title, marked in lanes.items() if marked}


def replay_figure(result: ReplayResult, log_scale: bool = False) -> go.Figure:
    calls = result.calls
    numbers = [record.call + 1 for record in calls]
    figure = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.74, 0.26], vertical_spacing=0.04)
    runs = [record for record in calls if record.raw_runs]
    figure.add_trace(go.Scatter(
        x=[r.call + 1 for r in runs], y=[r.raw_tokens for r in runs], name="without compaction", mode="lines",
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
            x=[r.call + 1 for r in recorded], y=[r.measures.recorded["context_tokens"] for r in recorded],
            name="what the agent really sent (its log)", mode="lines", line={"color": RECORDED_COLOR, "width": 2},
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
            x=[r.call + 1 for r in marked], y=[title] * len(marked), mode="markers", name=title,
            marker={"color": ACTION_COLORS.get(action) or LANE_COLORS[title], "symbol": "line-ns-open", "size": 12,
                    "line": {"width": 2}},
            customdata=[r.call for r in marked], showlegend=False,
            hovertemplate=f"call %{{x}}: {title}<extra></extra>"), row=2, col=1)
    peak = max((max(r.raw_tokens if r.raw_runs else 0, r.tokens) for r in calls), default=0)
    if recorded:
        peak = max(peak, max(r.measures.recorded["context_tokens"] for r in recorded))
    limit_lines(figure, result.settings.context_limit, result.model_window_tokens, peak, log_scale,
                result.token_model, result.overhead_chars, row=1, col=1)
    _boundaries(figure, result, peak)
    figure.update_yaxes(title_text="context sent (tokens)", type="log" if log_scale else "linear", row=1, col=1)
    figure.update_yaxes(categoryorder="array", categoryarray=list(reversed(lanes)), row=2, col=1)
    figure.update_xaxes(title_text="model call (one per assistant message)", row=2, col=1)
    figure.update_layout(height=600, margin={"t": 30, "b": 10, "l": 10, "r": 10}, hovermode="closest",
                         clickmode="event+select", legend={"orientation": "h", "y": 1.1, "x": 0})
    return figure


def _boundaries(figure: go.Figure, result: ReplayResult, peak: int) -> None:
    """The log's own compactions: unlabelled lines in the top chart (labels side by side would run into
    each other), named once in the legend, with the tokens before each on hover."""
    drawn = [boundary for boundary in result.boundaries if boundary.get("call") is not None]
    for boundary in drawn:
        figure.add_vline(x=boundary["call"] + 0.5, line_color=BOUNDARY_COLOR, line_width=2, row=1, col=1)
    if drawn:
        figure.add_trace(go.Scatter(
            x=[boundary["call"] + 0.5 for boundary in drawn], y=[peak] * len(drawn), mode="markers",
            name="Claude Code compacted here (its own log)",
            marker={"color": BOUNDARY_COLOR, "symbol": "triangle-down", "size": 10},
            hovertext=[f"Claude Code compacted ({html.escape(str(boundary.get('trigger', '?')))})"
                       + (f", {boundary['pre_tokens']:,} tokens before" if isinstance(boundary.get("pre_tokens"), int)
                          else "") for boundary in drawn],
            hovertemplate="%{hovertext}<extra></extra>"), row=1, col=1)
