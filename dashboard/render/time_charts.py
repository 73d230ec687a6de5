"""Chart builders for a session over time: the strategies side by side and the sweep's heatmap (the
replay's own chart is in replay_chart.py). Plain functions to plotly figures, tested without a browser; sizes in estimated tokens
(what a model bills), CONTEXT_LIMIT converted from characters."""

import html
from collections.abc import Sequence

import plotly.graph_objects as go

from compaction.measures import MEASURES
from compaction.model import DEFAULT_TOKEN_MODEL, TokenModel
from compaction.replay import ReplayResult, call_number
from compaction.strategies import REGISTRY
from compaction.sweep import SweepResult
from dashboard.render import heat_colors
from dashboard.render.charts import LIMIT_COLOR
from dashboard.render.timeline import STRATEGY_TITLES, limit_name, limit_tokens
from dashboard.render.units import compact_number

WINDOW_COLOR = "#333333"
RAW_COLOR = "#bab0ac"
SENT_COLOR = "#4c78a8"
BOUNDARY_COLOR = "#9467bd"
ACTION_COLORS = {"L3": "#f58518", "L1": "#bab0ac", "L2": "#eeca3b", "L4": "#b279a2", "mask": "#72b7b2",
                 "summary": "#b279a2", "reactive": "#e45756", "compact_tool": "#54a24b", "persist": "#f58518",
                 "microcompact": "#eeca3b", "auto_compact": "#b279a2", "clear_tool_uses": "#eeca3b",
                 "clear_thinking": "#9d755d", "compact": "#b279a2", "forget": "#bab0ac", "condense": "#b279a2"}
RECORDED_COLOR = "#f58518"  # what the agent really sent, on every chart
RECORDED_NAME = "As recorded (its log)"  # the as-recorded strategy's name: its tokens are the recorded ones
BOUNDARY_NAME = "the agent compacted here (its log)"
STOP_COLOR = "#e45756"
STOP_TEXT = "without compaction the agent stops here: prompt too long"
# one colour per strategy of the registry, the tutorial's first three as they always were, and what the
# agent did in the recorded line's colour
_PALETTE = ("#54a24b", "#e45756", "#9d755d", "#ff9da6", "#79706e", "#d67195", "#439894", "#8cd17d",
            "#b6992d", "#499894", "#86bcb6", "#fabfd2", "#1f77b4", "#8c564b", "#17becf", "#bcbd22",
            "#9467bd", "#e377c2", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#5254a3",
            "#6b6ecf", "#b5cf6b", "#e7969c", "#de9ed6")
STRATEGY_COLORS = {"pipeline": SENT_COLOR, "masking": "#72b7b2", "summary_keep_last": "#b279a2",
                   "as-recorded": RECORDED_COLOR}
_UNCOLOURED = [n for n in REGISTRY if n not in STRATEGY_COLORS]
# past the palette (more agents' presets than colours), hues spread evenly: still a colour each
STRATEGY_COLORS.update(zip(_UNCOLOURED, [*_PALETTE, *(f"hsl({(137 * k) % 360}, 55%, 45%)" for k in range(
    max(0, len(_UNCOLOURED) - len(_PALETTE))))], strict=False))
MARGIN = {"t": 30, "b": 10, "l": 10, "r": 10}
# behind a line's label: the lines crossing it (a compaction, where the histories part) pass behind, readable
LABEL_BACKGROUND = "rgba(255, 255, 255, 0.85)"


def limit_lines(figure: go.Figure, context_limit: int | None, window: int, peak: int, log_scale: bool,
                model: TokenModel = DEFAULT_TOKEN_MODEL, overhead_chars: int = 0, **where) -> None:
    """CONTEXT_LIMIT (when given) and the model window as lines. A window far above the data would
    flatten it, so the linear axis then stops above the data and says where the window is."""
    limit = limit_tokens(context_limit, model, overhead_chars) if context_limit is not None else 0
    if context_limit is not None:
        figure.add_hline(y=limit, line_dash="dash", line_color=LIMIT_COLOR, annotation_text=limit_name(
                         context_limit, model, overhead_chars), annotation_position="top left",
                         annotation_font_color=LIMIT_COLOR, annotation_bgcolor=LABEL_BACKGROUND, **where)
    window_text = f"model window {compact_number(window)} tokens"
    top = 1.1 * max(peak, limit, 1)
    if log_scale or window <= 1.5 * top:
        figure.add_hline(y=window, line_dash="dot", line_color=WINDOW_COLOR, annotation_text=window_text,
                         annotation_position="top left", annotation_font_color=WINDOW_COLOR,
                         annotation_bgcolor=LABEL_BACKGROUND, **where)
        return
    figure.update_yaxes(range=[0, top], **where)
    figure.add_annotation(text=f"{window_text}: far above this chart", xref="x domain", x=1, xanchor="right",
                          y=top, yanchor="top", showarrow=False, font={"color": WINDOW_COLOR},
                          bgcolor=LABEL_BACKGROUND, **where)  # a boundary line passes behind it


def log_compactions(figure: go.Figure, result: ReplayResult, peak: int, **where) -> None:
    """The log's own compactions: unlabelled lines (labels side by side would run into each other), named
    once in the legend, with the tokens before each on hover."""
    drawn = [boundary for boundary in result.boundaries if boundary.get("call") is not None]
    for boundary in drawn:
        figure.add_vline(x=boundary["call"] + 0.5, line_color=BOUNDARY_COLOR, line_width=2, **where)
    if drawn:
        figure.add_trace(go.Scatter(
            x=[boundary["call"] + 0.5 for boundary in drawn], y=[peak] * len(drawn), mode="markers",
            name=BOUNDARY_NAME, marker={"color": BOUNDARY_COLOR, "symbol": "triangle-down", "size": 10},
            hovertext=[f"the agent compacted ({html.escape(str(boundary.get('trigger', '?')))})"
                       + (f", {boundary['pre_tokens']:,} tokens before" if isinstance(boundary.get("pre_tokens"), int)
                          else "") for boundary in drawn],
            hovertemplate="%{hovertext}<extra></extra>"), **where)


def recorded_calls(result: ReplayResult) -> list:
    """The calls whose usage the log recorded."""
    return [r for r in result.calls if r.measures and r.measures.recorded and r.measures.recorded.get("context_tokens")]


def _line(name: str, bold: Sequence[str] | None, width: float = 2) -> dict:
    """A strategy's line: thick when picked, thin and faint beside picked ones, as it is otherwise."""
    if not bold:
        return {"line": {"color": STRATEGY_COLORS.get(name), "width": width}}
    if name in bold:
        return {"line": {"color": STRATEGY_COLORS.get(name), "width": 4}}
    return {"line": {"color": STRATEGY_COLORS.get(name), "width": 1.2}, "opacity": 0.45}


def strategies_figure(replays: dict[str, ReplayResult], log_scale: bool = False,
                      context_limit: int | None = None, bold: Sequence[str] | None = None) -> go.Figure:
    """Context sent per model call, one line per strategy (its short name in the legend, its full name
    on hover), beside the truth: what the agent really sent when its log recorded usage (the "as
    recorded" line) and where it compacted itself, and no compaction until the model window refuses it
    (where the agent would stop, as the table's no-compaction row counts). CONTEXT_LIMIT as a line when
    given. `bold`: the strategies drawn thick, the others thin and faint (none: all alike); a click on a
    name in the legend shows that line alone, a second click all of them."""
    figure = go.Figure()
    first = next(iter(replays.values()))
    runs = first.calls if first.raw_stop_call is None else first.calls[:first.raw_stop_call]
    figure.add_trace(go.Scatter(x=[call_number(r.call) for r in runs], y=[r.raw_tokens for r in runs],
                                name="no compaction", mode="lines", line={"color": RAW_COLOR, "dash": "dot"},
                                hovertemplate="call %{x}: %{y:,} tokens without compaction<extra></extra>"))
    recorded = recorded_calls(first)
    if recorded:
        figure.add_trace(go.Scatter(
            x=[call_number(r.call) for r in recorded], y=[r.measures.recorded["context_tokens"] for r in recorded],
            mode="lines", name=RECORDED_NAME, **_line("as-recorded", bold, width=3),
            hovertemplate=f"<b>{REGISTRY['as-recorded'].title}</b><br>call %{{x}}: %{{y:,}} tokens recorded in the "
                          "log<extra></extra>"))
    for name, result in replays.items():
        if name == "as-recorded" and recorded:
            continue  # its tokens are the recorded ones: the line above
        title = REGISTRY[name].title if name in REGISTRY else name
        figure.add_trace(go.Scatter(
            x=[call_number(r.call) for r in result.calls], y=[r.tokens for r in result.calls], mode="lines",
            name=STRATEGY_TITLES.get(name, name), **_line(name, bold),
            hovertemplate=f"<b>{title}</b><br>call %{{x}}: %{{y:,}} tokens<extra></extra>"))
    peak = max([r.raw_tokens for r in runs] + [r.tokens for result in replays.values() for r in result.calls]
               + [r.measures.recorded["context_tokens"] for r in recorded], default=0)
    stop = first.raw_stop_call
    if stop is not None:
        figure.add_trace(go.Scatter(
            x=[stop + 1], y=[first.model_window_tokens], mode="markers", name=STOP_TEXT,
            marker={"color": STOP_COLOR, "symbol": "x", "size": 12, "line": {"width": 2}},
            hovertemplate=f"call %{{x}}: {STOP_TEXT}<extra></extra>"))
    limit_lines(figure, context_limit, first.model_window_tokens, max(peak, first.model_window_tokens if stop is not None
                                                                      else 0), log_scale, first.token_model,
                first.overhead_chars)
    log_compactions(figure, first, peak)
    figure.update_layout(height=480, margin=MARGIN, yaxis_title="context sent (tokens, with the overhead)",
                         yaxis_type="log" if log_scale else "linear", xaxis_title="model call",
                         legend={"orientation": "h", "y": -0.18, "yanchor": "top", "x": 0,
                                 "itemclick": "toggleothers", "itemdoubleclick": "toggle"})
    return figure




def cell_text(value, measure: str) -> str:
    """A measure's value as a cell shows it: a share in percent, dollars with cents, else a count."""
    if value is None:
        return "–"
    unit = MEASURES[measure].unit if measure in MEASURES else "count"
    if unit == "share":
        return f"{100 * value:.0f}%"
    if unit == "usd":
        return f"${value:,.2f}"
    return compact_number(value)


def sweep_heatmap(result: SweepResult, measure: str, title: str, current: tuple[int, int] | None = None,
                  x_labels: Sequence[str] = (), y_labels: Sequence[str] = (), x_title: str | None = None,
                  y_title: str | None = None, current_name: str = "current settings",
                  current_words: str = "the sidebar's current settings") -> go.Figure:
    """The measure over the grid (rows: y values, columns: x values), each cell labelled. An invisible
    marker sits on every cell so a click selects it (heatmaps themselves cannot be selected); its
    customdata is (row, column). `current` (row, column) gets a black square (`current_name` in the
    legend, `current_words` on hover: the sidebar's settings). The colour bar is in the measure's unit.
    The axes show `x_labels` / `y_labels` when given (the values as typed: tokens for a size in the
    agent's regime), else the settings' own values."""
    grid = result.grid(measure)
    xs = list(x_labels) if len(x_labels) == len(result.x_values) else [f"{value:,}" for value in result.x_values]
    ys = list(y_labels) if len(y_labels) == len(result.y_values) else [f"{value:,}" for value in result.y_values]
    figure = go.Figure(go.Heatmap(
        z=[[float("nan") if v is None else v for v in row] for row in grid], x=xs, y=ys,
        text=[[cell_text(v, measure) for v in row] for row in grid],  # drawn by the cells' trace, in a colour each
        colorscale=heat_colors.scale(measure), colorbar=heat_colors.colorbar(measure), hoverinfo="skip"))
    cells = [(r, c) for r in range(len(ys)) for c in range(len(xs))]
    figure.add_trace(go.Scatter(
        x=[xs[c] for _, c in cells], y=[ys[r] for r, _ in cells], mode="markers+text", customdata=cells,
        textposition="middle center", texttemplate="%{text}",
        textfont={"color": heat_colors.text_colors([grid[r][c] for r, c in cells], measure)},
        marker={"symbol": "square", "size": 28, "color": "rgba(0,0,0,0)"}, showlegend=False,
        selected={"marker": {"opacity": 1}}, unselected={"marker": {"opacity": 1}},
        text=[cell_text(grid[r][c], measure) for r, c in cells],
        hovertemplate=(f"{x_title or result.x_name} %{{x}}<br>{y_title or result.y_name} %{{y}}<br>{title}: %{{text}}"
                       "<extra>click to use these settings</extra>")))
    if current is not None:
        row, column = current
        figure.add_trace(go.Scatter(
            x=[xs[column]], y=[ys[row]], mode="markers", name=current_name, customdata=[current],
            marker={"symbol": "square-open", "size": 34, "color": "black", "line": {"width": 3}},
            hovertemplate=f"{current_words}<extra></extra>"))
    figure.update_layout(height=520, margin=MARGIN, hovermode="closest", clickmode="event+select",
                         xaxis={"title": x_title or result.x_name.upper(), "type": "category"},
                         yaxis={"title": y_title or result.y_name.upper(), "type": "category"},
                         legend={"orientation": "h", "y": 1.06, "x": 0})
    return figure
