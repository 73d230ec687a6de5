"""What fills the context, as pictures (plain functions to plotly figures, tested without a browser):

- `composition_bars`: one stacked horizontal bar per call compared (the loaded conversation's last call,
  the call picked on Replay, each beside what it would send without compaction), a segment per kind and
  the largest tools' results apart;
- `composition_area`: the kinds call by call along a replay, stacked, with what the log recorded as a
  line over them; one panel with the strategy, one without compaction;
- `live_bars`: a followed session now and right after the agent's next compaction, what that
  compaction takes drawn faded at the end of the bar, under a bracket.

A segment's value is written inside it only where it fits (plotly hides the rest); every value is in the
hover, and a single bar's legend names each kind with its tokens, so no figure is ever cut.
"""

from collections.abc import Sequence

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from compaction.live import LIVE_TITLES, LiveComposition
from compaction.measures import KIND_TITLES, OTHER_TOOLS, TOOL_RESULTS, Composition
from compaction.replay import call_number
from dashboard.render.time_charts import RECORDED_COLOR
from dashboard.render.units import compact_number

# the order a bar reads from the left: what every call sends, what compaction left, then the session
ORDER = ("system_and_tools", "not_in_log", "summaries", "person", "replies", "thinking", "tool_calls",
         TOOL_RESULTS, "images", "placeholders", "previews")  # every kind of KINDS (tested)
COLORS = {"system_and_tools": "#79706e", "not_in_log": "#c7c7c7", "summaries": "#b279a2", "person": "#4c78a8",
          "replies": "#54a24b", "thinking": "#8cd17d", "tool_calls": "#b6992d", TOOL_RESULTS: "#e45756",
          "images": "#17becf", "placeholders": "#eeca3b", "previews": "#f58518"}
TOOL_COLORS = ("#e45756", "#ff9da6", "#d67195", "#9d755d", "#fabfd2", "#d8b5a5")
OTHER_TOOLS_COLOR = "#bab0ac"
TOP_TOOLS = 5
TAKEN = "the next compaction takes"
TAKEN_COLOR, TAKEN_OPACITY = "#333333", 0.4
BAR_PX, AXIS_PX, LEGEND_ROW_PX, LEGEND_PER_ROW = 60, 70, 22, 3  # a legend row holds about three long names
TEXT = {"minsize": 11, "mode": "hide"}  # a value that does not fit its segment is not drawn (never cut)


def _segments(rows: Sequence[Composition], tools: int) -> list[tuple[str, str, list[int]]]:
    """(title, colour, tokens per row) of every segment some row has, in ORDER, tools apart."""
    largest: dict[str, int] = {}
    for found in rows:
        for tool, tokens in found.tool_results_by_tool.items():
            largest[tool] = max(largest.get(tool, 0), tokens)
    named = sorted(largest, key=largest.__getitem__, reverse=True)
    named = named if len(named) <= tools + 1 else named[:tools]
    found_segments = []
    for kind in ORDER:
        if kind != TOOL_RESULTS:
            found_segments.append((KIND_TITLES[kind], COLORS[kind], [found.kinds[kind] for found in rows]))
            continue
        for position, tool in enumerate(named):
            found_segments.append((f"{KIND_TITLES[kind]}: {tool}", TOOL_COLORS[position % len(TOOL_COLORS)],
                                   [found.tool_results_by_tool.get(tool, 0) for found in rows]))
        others = [found.kinds[kind] - sum(found.tool_results_by_tool.get(tool, 0) for tool in named) for found in rows]
        found_segments.append((f"{KIND_TITLES[kind]}: {OTHER_TOOLS}", OTHER_TOOLS_COLOR, others))
    return [segment for segment in found_segments if any(segment[2])]


def _value_text(value: int) -> str:
    return compact_number(value) if value else ""


def _bar(name: str, color: str, labels: list[str], values: list[int], totals: list[int], opacity: float = 1,
         legendgroup: str | None = None) -> go.Bar:
    shares = [value / total if total else 0 for value, total in zip(values, totals, strict=True)]
    return go.Bar(y=labels, x=values, name=name, orientation="h", marker={"color": color, "opacity": opacity},
                  legendgroup=legendgroup,
                  text=[_value_text(value) for value in values], textposition="inside",
                  insidetextanchor="middle", textangle=0, customdata=shares, cliponaxis=False,
                  hovertemplate=f"%{{y}}<br>{name}: %{{x:,}} tokens (%{{customdata:.1%}})<extra></extra>")


def _bar_layout(figure: go.Figure, labels: list[str], totals: list[int], legend_items: int) -> None:
    """Stacked bars, each with its total written past its end (the axis leaves room for it), and the legend
    in a margin of its own under the axis, however many rows it takes."""
    for label, total in zip(labels, totals, strict=True):
        figure.add_annotation(x=total, y=label, text=f"<b>{compact_number(total)}</b> tokens", xanchor="left",
                              xshift=6, showarrow=False)
    legend_px = LEGEND_ROW_PX * -(-legend_items // LEGEND_PER_ROW) + 10
    figure.update_layout(barmode="stack", height=BAR_PX * len(labels) + AXIS_PX + legend_px, uniformtext=TEXT,
                         margin={"t": 10, "b": AXIS_PX + legend_px - 60, "l": 10, "r": 10}, hovermode="closest",
                         xaxis={"title": "tokens the call sends", "tickformat": ",",
                                "range": [0, 1.18 * max(totals, default=1) or 1]},
                         yaxis={"autorange": "reversed", "automargin": True},
                         legend={"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "x": 0,
                                 "traceorder": "normal"})


def composition_bars(rows: Sequence[tuple[str, Composition]], tools: int = TOP_TOOLS) -> go.Figure:
    """One stacked bar per (label, composition), the first on top."""
    labels = [label for label, _ in rows]
    found = [composition for _, composition in rows]
    totals = [composition.tokens for composition in found]
    figure = go.Figure()
    segments = _segments(found, tools)
    for title, color, values in segments:
        # a single bar: the legend says each kind's tokens, so the smallest still has its figure
        name = f"{title} ({compact_number(values[0])})" if len(rows) == 1 else title
        figure.add_trace(_bar(name, color, labels, values, totals))
    _bar_layout(figure, labels, totals, len(segments))
    return figure


def composition_area(calls: Sequence[int], along: Sequence[Composition], without: Sequence[Composition | None],
                     recorded: Sequence[int | None], strategy: str) -> go.Figure:
    """The kinds of every call (numbered from 1) stacked, with `strategy` above and without compaction below
    (None: a call the model window refuses without compaction), the recorded context over both."""
    figure = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.1,
                           subplot_titles=(f"sent with {strategy}", "without compaction"))
    numbers = [call_number(call) for call in calls]
    runs = [(number, found) for number, found in zip(numbers, without, strict=True) if found is not None]
    for row, points in ((1, list(zip(numbers, along, strict=True))), (2, runs)):
        for kind in ORDER:
            values = [found.kinds[kind] for _, found in points]
            if not any(values):
                continue
            figure.add_trace(go.Scatter(
                x=[number for number, _ in points], y=values, name=KIND_TITLES[kind], mode="lines",
                stackgroup=f"kinds{row}", line={"width": 0.5, "color": COLORS[kind]}, fillcolor=COLORS[kind],
                legendgroup=kind, showlegend=row == 1, hovertemplate=f"call %{{x}}: {KIND_TITLES[kind]} %{{y:,}} "
                "tokens<extra></extra>"), row=row, col=1)
        logged = [(number, tokens) for number, tokens in zip(numbers, recorded, strict=True) if tokens]
        if logged:
            figure.add_trace(go.Scatter(
                x=[number for number, _ in logged], y=[tokens for _, tokens in logged], mode="lines",
                name="recorded in the log", legendgroup="recorded", showlegend=row == 1,
                line={"color": RECORDED_COLOR, "width": 2}, hovertemplate="call %{x}: %{y:,} tokens recorded"
                "<extra></extra>"), row=row, col=1)
    figure.update_yaxes(title_text="tokens", tickformat=",", matches="y")  # one scale: the drop is seen
    figure.update_xaxes(title_text="model call (one per assistant message)", row=2, col=1)
    figure.update_layout(height=640, margin={"t": 30, "b": 10, "l": 10, "r": 10}, hovermode="x unified",
                         legend={"orientation": "h", "y": -0.12, "yanchor": "top", "x": 0, "traceorder": "normal"})
    return figure


def live_bars(found: LiveComposition) -> go.Figure:
    """The context now and right after the next compaction. In the bar of now, what that compaction takes
    comes last, faded, under a bracket that says how much it is (a hatch pattern is not drawn in the page)."""
    now, after = f"now (call {found.call:,})", "after the next compaction"
    labels, totals = [now, after], [found.tokens, sum(found.after.values())]
    kinds = [kind for kind in ORDER if kind in found.kinds]
    figure = go.Figure()
    legend = set()
    for kind in kinds:
        kept = found.kinds[kind] - found.taken[kind]
        if kept or found.after[kind]:
            figure.add_trace(_bar(LIVE_TITLES[kind], COLORS[kind], labels, [kept, found.after[kind]], totals,
                                  legendgroup=kind))
            legend.add(kind)
    taken_total = sum(found.taken.values())
    for kind in kinds:
        if found.taken[kind]:
            taken = _bar(LIVE_TITLES[kind], COLORS[kind], [now], [found.taken[kind]], [found.tokens], opacity=TAKEN_OPACITY)
            # a kind the compaction takes whole is in the legend by its faded part
            taken.update(showlegend=kind not in legend, legendgroup=kind, insidetextfont={"color": TAKEN_COLOR},
                         hovertemplate=f"%{{y}}<br>{LIVE_TITLES[kind]}, taken by the next compaction: %{{x:,}} tokens "
                         "(%{customdata:.1%})<extra></extra>")
            figure.add_trace(taken)
    if taken_total:
        start = found.tokens - taken_total
        figure.add_shape(type="path", path=f"M {start},-0.42 L {start},-0.47 L {found.tokens},-0.47 "
                         f"L {found.tokens},-0.42", line={"color": TAKEN_COLOR, "width": 1.5})
        figure.add_annotation(x=(start + found.tokens) / 2, y=-0.47, yanchor="bottom", showarrow=False,
                              text=f"{TAKEN}: {compact_number(taken_total)} tokens", font={"color": TAKEN_COLOR})
    _bar_layout(figure, labels, totals, sum(1 for trace in figure.data if trace.showlegend is not False))
    figure.update_layout(margin={"t": 30}, yaxis={"autorange": False, "range": [1.5, -0.8]})
    return figure
