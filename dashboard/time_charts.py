"""Chart builders for a session over time: the replay's sawtooth, the strategies side by side, and the
sweep's heatmap. Plain functions to plotly figures, tested without a browser; sizes in estimated tokens
(what a model bills), CONTEXT_LIMIT converted from characters."""

import html

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from compaction.replay import ACTIONS, ReplayResult
from compaction.strategies import REGISTRY
from compaction.sweep import SweepResult

from .charts import LIMIT_COLOR
from .timeline import ACTION_TITLES, STRATEGY_TITLES, limit_tokens
from .units import compact_number

WINDOW_COLOR = "#333333"
RAW_COLOR = "#bab0ac"
SENT_COLOR = "#4c78a8"
BOUNDARY_COLOR = "#9467bd"
ACTION_COLORS = {"L3": "#f58518", "L1": "#bab0ac", "L2": "#eeca3b", "L4": "#b279a2", "mask": "#72b7b2",
                 "summary": "#b279a2", "reactive": "#e45756", "compact_tool": "#54a24b", "persist": "#f58518",
                 "microcompact": "#eeca3b", "auto_compact": "#b279a2", "clear_tool_uses": "#eeca3b",
                 "clear_thinking": "#9d755d", "compact": "#b279a2", "forget": "#bab0ac", "condense": "#b279a2"}
# one colour per strategy of the registry, the tutorial's first three as they always were
_PALETTE = ("#f58518", "#54a24b", "#e45756", "#9d755d", "#ff9da6", "#79706e", "#d67195", "#439894", "#8cd17d",
            "#b6992d", "#499894", "#86bcb6", "#fabfd2")
STRATEGY_COLORS = {"pipeline": SENT_COLOR, "masking": "#72b7b2", "summary_keep_last": "#b279a2"}
STRATEGY_COLORS.update(zip([n for n in REGISTRY if n not in STRATEGY_COLORS], _PALETTE, strict=False))
MARGIN = {"t": 30, "b": 10, "l": 10, "r": 10}


def _limit_lines(figure: go.Figure, context_limit: int | None, window: int, peak: int, log_scale: bool,
                 **where) -> None:
    """CONTEXT_LIMIT (when given) and the model window as lines. A window far above the data would
    flatten it, so the linear axis then stops above the data and says where the window is."""
    limit = limit_tokens(context_limit) if context_limit is not None else 0
    if context_limit is not None:
        figure.add_hline(y=limit, line_dash="dash", line_color=LIMIT_COLOR, annotation_text=f"CONTEXT_LIMIT ≈ "
                         f"{compact_number(limit)} tokens", annotation_position="top left",
                         annotation_font_color=LIMIT_COLOR, **where)
    window_text = f"model window {compact_number(window)} tokens"
    top = 1.1 * max(peak, limit, 1)
    if log_scale or window <= 1.5 * top:
        figure.add_hline(y=window, line_dash="dot", line_color=WINDOW_COLOR, annotation_text=window_text,
                         annotation_position="top left", annotation_font_color=WINDOW_COLOR, **where)
        return
    figure.update_yaxes(range=[0, top], **where)
    figure.add_annotation(text=f"{window_text}: far above this chart", xref="x domain", x=1, xanchor="right",
                          y=top, yanchor="top", showarrow=False, font={"color": WINDOW_COLOR},
                          bgcolor="rgba(255, 255, 255, 0.85)", **where)  # a boundary line passes behind it


def replay_figure(result: ReplayResult, log_scale: bool = False) -> go.Figure:
    """Context sent per model call with and without compaction (top), and a lane per action that changed
    the history before a call (bottom). Every point carries its call (0-based) as customdata, so a click
    names the call; Claude Code's own compactions are purple vertical lines."""
    calls = result.calls
    numbers = [record.call + 1 for record in calls]
    used = [action for action in ACTIONS if any(action in record.acted for record in calls)]
    figure = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.78, 0.22], vertical_spacing=0.04)
    figure.add_trace(go.Scatter(
        x=numbers, y=[record.raw_tokens for record in calls], name="without compaction", mode="lines",
        line={"color": RAW_COLOR, "width": 2}, customdata=[record.call for record in calls],
        hovertemplate="call %{x}: %{y:,} tokens without compaction<extra></extra>"), row=1, col=1)
    figure.add_trace(go.Scatter(
        x=numbers, y=[record.tokens for record in calls], name="sent, with compaction", mode="lines+markers",
        line={"color": SENT_COLOR, "width": 2}, marker={"size": 5}, customdata=[record.call for record in calls],
        hovertemplate="call %{x}: %{y:,} tokens sent<extra>click to see this call's history</extra>"),
        row=1, col=1)
    for action in used:
        acted = [record for record in calls if action in record.acted]
        figure.add_trace(go.Scatter(
            x=[record.call + 1 for record in acted], y=[ACTION_TITLES[action]] * len(acted), mode="markers",
            name=ACTION_TITLES[action], marker={"color": ACTION_COLORS[action], "symbol": "line-ns-open",
                                                "size": 12, "line": {"width": 2}},
            customdata=[record.call for record in acted], showlegend=False,
            hovertemplate=f"call %{{x}}: {ACTION_TITLES[action]}<extra></extra>"), row=2, col=1)
    peak = max(max(record.raw_tokens, record.tokens) for record in calls) if calls else 0
    _limit_lines(figure, result.settings.context_limit, result.model_window_tokens, peak, log_scale, row=1, col=1)
    drawn = [boundary for boundary in result.boundaries if boundary.get("call") is not None]
    for boundary in drawn:  # in the top chart only, unlabelled: labels side by side run into each other
        figure.add_vline(x=boundary["call"] + 0.5, line_color=BOUNDARY_COLOR, line_width=2, row=1, col=1)
    if drawn:  # named once, in the legend; a mark on top of each line says more on hover
        figure.add_trace(go.Scatter(
            x=[boundary["call"] + 0.5 for boundary in drawn], y=[peak] * len(drawn), mode="markers",
            name="Claude Code compacted here (its own log)",
            marker={"color": BOUNDARY_COLOR, "symbol": "triangle-down", "size": 10},
            hovertext=[f"Claude Code compacted ({html.escape(str(boundary.get('trigger', '?')))})"
                       + (f", {boundary['pre_tokens']:,} tokens before" if isinstance(boundary.get("pre_tokens"), int)
                          else "") for boundary in drawn],
            hovertemplate="%{hovertext}<extra></extra>"), row=1, col=1)
    figure.update_yaxes(title_text="context sent (estimated tokens)", type="log" if log_scale else "linear",
                        row=1, col=1)
    figure.update_yaxes(categoryorder="array", categoryarray=[ACTION_TITLES[a] for a in reversed(used)],
                        row=2, col=1)
    figure.update_xaxes(title_text="model call (one per assistant message)", row=2, col=1)
    figure.update_layout(height=560, margin=MARGIN, hovermode="closest", clickmode="event+select",
                         legend={"orientation": "h", "y": 1.08, "x": 0})
    return figure


def strategies_figure(replays: dict[str, ReplayResult], log_scale: bool = False,
                      context_limit: int | None = None) -> go.Figure:
    """Context sent per model call, one line per strategy (its short name in the legend, its full name
    on hover), and the uncompacted size for scale; CONTEXT_LIMIT as a line when given."""
    figure = go.Figure()
    first = next(iter(replays.values()))
    figure.add_trace(go.Scatter(x=[r.call + 1 for r in first.calls], y=[r.raw_tokens for r in first.calls],
                                name="no compaction", mode="lines", line={"color": RAW_COLOR, "dash": "dot"}))
    for name, result in replays.items():
        title = REGISTRY[name].title if name in REGISTRY else name
        figure.add_trace(go.Scatter(
            x=[r.call + 1 for r in result.calls], y=[r.tokens for r in result.calls], mode="lines",
            name=STRATEGY_TITLES.get(name, name), line={"color": STRATEGY_COLORS.get(name), "width": 2},
            hovertemplate=f"<b>{title}</b><br>call %{{x}}: %{{y:,}} tokens<extra></extra>"))
    peak = max((max(r.raw_tokens, r.tokens) for result in replays.values() for r in result.calls), default=0)
    _limit_lines(figure, context_limit, first.model_window_tokens, peak, log_scale)
    figure.update_layout(height=440, margin=MARGIN, yaxis_title="context sent (estimated tokens)",
                         yaxis_type="log" if log_scale else "linear", xaxis_title="model call",
                         legend={"orientation": "h", "y": -0.2, "x": 0})
    return figure


def _cell_text(value, measure: str) -> str:
    if value is None:
        return "–"
    return f"{100 * value:.0f}%" if measure == "tool_output_kept" else compact_number(value)


def sweep_heatmap(result: SweepResult, measure: str, title: str, current: tuple[int, int] | None = None
                  ) -> go.Figure:
    """The measure over the grid (rows: y values, columns: x values), each cell labelled. An invisible
    marker sits on every cell so a click selects it (heatmaps themselves cannot be selected); its
    customdata is (row, column). `current` (row, column) gets a black square: the sidebar's settings."""
    grid = result.grid(measure)
    xs = [f"{value:,}" for value in result.x_values]
    ys = [f"{value:,}" for value in result.y_values]
    figure = go.Figure(go.Heatmap(
        z=[[float("nan") if v is None else v for v in row] for row in grid], x=xs, y=ys,
        text=[[_cell_text(v, measure) for v in row] for row in grid], texttemplate="%{text}",
        colorscale="Blues" if measure == "tool_output_kept" else "Blues_r", colorbar={"title": {"text": ""}},
        hoverinfo="skip"))
    cells = [(r, c) for r in range(len(ys)) for c in range(len(xs))]
    figure.add_trace(go.Scatter(
        x=[xs[c] for _, c in cells], y=[ys[r] for r, _ in cells], mode="markers", customdata=cells,
        marker={"symbol": "square", "size": 28, "color": "rgba(0,0,0,0)"}, showlegend=False,
        selected={"marker": {"opacity": 1}}, unselected={"marker": {"opacity": 1}},
        text=[_cell_text(grid[r][c], measure) for r, c in cells],
        hovertemplate=(f"{result.x_name} %{{x}}<br>{result.y_name} %{{y}}<br>{title}: %{{text}}"
                       "<extra>click to use these settings</extra>")))
    if current is not None:
        row, column = current
        figure.add_trace(go.Scatter(
            x=[xs[column]], y=[ys[row]], mode="markers", name="current settings", customdata=[current],
            marker={"symbol": "square-open", "size": 34, "color": "black", "line": {"width": 3}},
            hovertemplate="the sidebar's current settings<extra></extra>"))
    figure.update_layout(height=520, margin=MARGIN, hovermode="closest", clickmode="event+select",
                         xaxis={"title": result.x_name.upper(), "type": "category"},
                         yaxis={"title": result.y_name.upper(), "type": "category"},
                         legend={"orientation": "h", "y": 1.06, "x": 0})
    return figure
