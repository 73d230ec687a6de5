"""Chart builders: plain functions from engine results to plotly figures (tested without a browser)."""

import math
import textwrap

import pandas as pd
import plotly.graph_objects as go

from compaction.layers import FATE_TEXT, FATES, LAYER_TITLES, PipelineResult
from compaction.model import DEFAULT_TOKEN_MODEL, TokenModel
from dashboard.render import layer_amounts
from dashboard.render.timeline import limit_name
from dashboard.render.units import SHORT, SIZE_WORDS, compact_number, convert

FATE_COLORS = {
    "kept": "#4c78a8",
    "persisted": "#f58518",
    "snipped": "#bab0ac",
    "placeholder": "#eeca3b",
    "summarised": "#b279a2",
}
LIMIT_COLOR = "#d62728"
FINAL_LABEL = "Sent to the model"


def _wrapped(text: str, width: int = 18) -> str:
    """A category label over several short lines, so labels never need to be tilted or cut."""
    return "<br>".join(textwrap.wrap(text, width))


def plain_log_ticks(low: float, high: float) -> dict:
    """Axis settings for a logarithmic axis labelled 1,000 / 10,000 / 100,000 (no '2' and '5' between)."""
    first, last = math.floor(math.log10(max(low, 1))), math.ceil(math.log10(max(high, 1)))
    values = [10 ** power for power in range(first, last + 1)]
    return {"tickvals": values, "ticktext": [f"{value:,}" for value in values]}


def waterfall_figure(result: PipelineResult, unit: str, log_scale: bool = False) -> go.Figure:
    """Size of the history after each layer: the input bar, what each layer removed, and the final size.

    Each bar's size or change is written under its name; a layer that did nothing shows a flat step. The
    CONTEXT_LIMIT is a dashed line, named in the right margin where no bar or value can sit on it.
    `log_scale` makes the small late steps visible beside a huge input (ticks at powers of ten).
    """
    model = result.stages[0].history.token_model
    sizes = [convert(stage.size, unit, model) for stage in result.stages]
    # each layer's step is its amount on every page (layer_amounts.py)
    steps = [sizes[0]] + [-layer_amounts.removed(result, stage.layer, unit) for stage in result.stages[1:]]
    changes = [f"−{compact_number(-step)}" if step < 0 else f"+{compact_number(step)}" if step > 0 else "no change"
               for step in steps[1:]]
    l4 = result.stages[-1]
    if l4.layer == "L4" and not l4.triggered:
        changes[-1] = "not triggered"
    # every figure is written under its bar, where neither the limit line nor another label can cross it
    labels = ([f"{LAYER_TITLES[result.stages[0].layer]}<br><b>{compact_number(sizes[0])}</b>"]
              + [f"{_wrapped(LAYER_TITLES[stage.layer])}<br><b>{change}</b>"
                 for stage, change in zip(result.stages[1:], changes, strict=True)]
              + [f"{FINAL_LABEL}<br><b>{compact_number(sizes[-1])}</b>"])
    figure = go.Figure(go.Waterfall(
        x=labels,
        y=steps + [sizes[-1]],
        measure=["absolute"] + ["relative"] * (len(steps) - 1) + ["total"],
        customdata=sizes + [sizes[-1]],
        hovertemplate="%{x}<br>size after: %{customdata:,} " + SHORT[unit] + "<extra></extra>",
        decreasing={"marker": {"color": "#54a24b"}},
        increasing={"marker": {"color": "#e45756"}},
        totals={"marker": {"color": "#4c78a8"}},
        connector={"line": {"color": "#999", "dash": "dot"}},
    ))
    limit = convert(result.settings.context_limit, unit, model)
    figure.add_hline(y=limit, line_dash="dash", line_color=LIMIT_COLOR)
    # named as on the Replay chart (limit_name): the setting, and in tokens what a call sends with it; the
    # line itself sits at the messages' alone, as the bars do
    limit_text = limit_name(result.settings.context_limit, model, result.stages[0].history.overhead, unit,
                            "<br>")
    figure.add_annotation(text=limit_text, xref="paper", x=1, xanchor="left",
                          yref="y", y=math.log10(max(limit, 1)) if log_scale else limit, yanchor="middle",
                          showarrow=False, align="left", font={"color": LIMIT_COLOR})
    yaxis = {"title": f"history size ({SIZE_WORDS[unit]})", "type": "log" if log_scale else "linear",
             "tickformat": ","}
    if log_scale:
        yaxis |= plain_log_ticks(min([size for size in sizes if size > 0] + [limit]), max(sizes + [limit]))
    figure.update_layout(
        yaxis=yaxis,
        xaxis={"tickangle": 0},
        showlegend=False,
        margin={"t": 30, "b": 10, "l": 10, "r": 150},
        height=460,
    )
    return figure


def fate_strip_figure(fates: list[str], sizes: list[int], roles: list[str], unit: str,
                      model: TokenModel = DEFAULT_TOKEN_MODEL, numbers: list[int | None] | None = None) -> go.Figure:
    """One thin bar per original message, coloured by what the pipeline did to it. `numbers`: each
    message's number in the loaded conversation when the pass ran on part of it (a self-compacted log)."""
    figure = go.Figure()
    numbers = list(range(len(fates))) if numbers is None else numbers
    for fate in FATES:
        indices = [i for i, f in enumerate(fates) if f == fate]
        if not indices:
            continue
        figure.add_trace(go.Bar(
            x=[numbers[i] for i in indices],
            y=[1] * len(indices),
            name=f"{fate}: {FATE_TEXT[fate]}",
            marker={"color": FATE_COLORS[fate], "line": {"width": 0}},
            customdata=[[roles[i], convert(sizes[i], unit, model)] for i in indices],
            hovertemplate=(f"message %{{x}} of the loaded conversation (%{{customdata[0]}}), %{{customdata[1]:,}} "
                           f"{SHORT[unit]}"
                           f"<br>{FATE_TEXT[fate]}<extra></extra>"),
        ))
    figure.update_layout(
        barmode="overlay",
        bargap=0,
        height=190,
        margin={"t": 10, "b": 10, "l": 10, "r": 10},
        yaxis={"visible": False, "range": [0, 1]},
        xaxis={"title": "message number in the loaded conversation (oldest on the left)",
               "range": [min(numbers, default=0) - 0.5, max(numbers, default=0) + 0.5]},
        legend={"orientation": "h", "y": -0.55, "x": 0},
    )
    return figure


def tool_calls_figure(counts: pd.DataFrame) -> go.Figure:
    """Horizontal bars: calls per tool, most called on top."""
    ordered = counts.iloc[::-1]
    calls, tools = ordered["calls"].tolist(), ordered["tool"].tolist()
    # counts written level, outside short bars: inside a thin bar plotly turns them 90 degrees
    figure = go.Figure(go.Bar(x=calls, y=tools, orientation="h", marker={"color": "#4c78a8"}, text=calls,
                              textposition="outside", textangle=0, cliponaxis=False))
    figure.update_layout(height=max(160, 40 + 28 * len(counts)), margin={"t": 10, "b": 10, "l": 10, "r": 40},
                         xaxis_title="calls", uniformtext={"minsize": 10, "mode": "show"})
    return figure
