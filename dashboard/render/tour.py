"""The guided tour's pictures and numbers: the conversation as coloured blocks (one per message, as wide
as it is long) before and after a layer, and the figures the tour's texts quote. No Streamlit here."""

import plotly.graph_objects as go

from compaction.layers import PipelineResult
from compaction.model import (
    COMPACTED_PREFIX,
    DEFAULTS,
    PLACEHOLDER,
    REACTIVE_PREFIX,
    History,
    blocks,
    content_text,
    tool_uses,
)
from dashboard.render.charts import LIMIT_COLOR
from dashboard.render.narrative import plural
from dashboard.render.units import compact_number

# The tutorial's defaults but a CONTEXT_LIMIT low enough that L4 fires on the seed demo.
TOUR_SETTINGS = DEFAULTS.replace(context_limit=8_000)
KINDS = {  # kind: (legend text, colour)
    "request": ("the person's request", "#4c78a8"),
    "reply": ("the model's tool call or answer", "#72b7b2"),
    "output": ("tool result (output)", "#f58518"),
    "preview": ("preview of an output saved to disk", "#ff9da6"),
    "marker": ("note: messages snipped here", "#7f7f7f"),
    "placeholder": ("placeholder for an old tool result", "#eeca3b"),
    "summary": ("summary that replaces the history", "#b279a2"),
}
# who wrote the tour's summary, in the tour's words (the tour always runs the offline summariser)
SUMMARY_AUTHORS = {"offline": "the offline summariser, a small program that needs no AI (so this tour needs no "
                              "key); it fills the same five headings a model is asked for",
                   "claude": "Claude, an AI model"}


def message_kind(message: dict) -> str:
    """What a message is, in the tour's words (a key of KINDS)."""
    content = message.get("content")
    if message.get("role") == "assistant":
        return "reply"
    if isinstance(content, str):
        if content.startswith((COMPACTED_PREFIX, REACTIVE_PREFIX)):
            return "summary"
        return "marker" if content.startswith("[snipped ") else "request"
    results = [content_text(block.get("content", "")) for block in blocks(message)
               if block.get("type") == "tool_result"]
    if not results:
        return "request"
    if any(text.startswith("<persisted-output>") for text in results):
        return "preview"
    return "placeholder" if all(text == PLACEHOLDER for text in results) else "output"


# A block's least width, as a share of the widest row, so that none vanishes: the messages the story is
# about (the person's request, the preview of a saved output, the snip note, the summary) get a wider one
# than the rest. The other
# blocks together are never widened past MAX_WIDENED of their row, so a huge message still looks huge.
MIN_SHARE = 0.004
MIN_SHARE_NAMED = 0.015
MAX_WIDENED = 0.3
NAMED_KINDS = ("request", "preview", "marker", "summary")
OUTLINED_SHARE = 0.01  # blocks narrower than this share get no white outline, which would hide them


def drawn_widths(sizes: list[int], kinds: list[str], scale: int) -> list[float]:
    """The widths to draw a row's blocks: each at least its kind's minimum (a share of `scale`), the
    others shrunk in proportion, so that the row stays exactly as long as the conversation. A row too
    short to give every block its minimum gives it to the named kinds only."""
    total = sum(sizes)
    others = sum(1 for kind in kinds if kind not in NAMED_KINDS)
    other_minimum = min(MIN_SHARE * scale, MAX_WIDENED * total / others) if others else 0.0
    for named, other in ((MIN_SHARE_NAMED * scale, other_minimum), (MIN_SHARE_NAMED * scale, 0.0)):
        minimums = [named if kind in NAMED_KINDS else other for kind in kinds]
        if sum(minimums) < total:
            return _widened(sizes, minimums)
    return [float(size) for size in sizes]


def _widened(sizes: list[int], minimums: list[float]) -> list[float]:
    """Blocks under their minimum get it; the rest share what is left in proportion to their size
    (the minimums together are less than the row, so at least one block is never widened)."""
    total = sum(sizes)
    widened: set[int] = set()
    while True:
        rest = sum(size for i, size in enumerate(sizes) if i not in widened)
        factor = (total - sum(minimums[i] for i in widened)) / rest
        newly = {i for i, size in enumerate(sizes) if i not in widened and size * factor < minimums[i]}
        if not newly:
            return [minimums[i] if i in widened else size * factor for i, size in enumerate(sizes)]
        widened |= newly


def blocks_figure(rows: list[tuple[str, History]], limit: int | None = None) -> go.Figure:
    """One horizontal row of blocks per (label, history), top row first, on one scale of characters;
    `limit` draws CONTEXT_LIMIT as a red line. Each row is as long as its history; a very short message
    is drawn a little wider than it is (drawn_widths), and its hover says its real size."""
    segments: dict[str, dict[str, list]] = {kind: {"x": [], "base": [], "y": [], "text": []} for kind in KINDS}
    scale = max((history.size for _, history in rows), default=0)
    for label, history in rows:
        kinds = [message_kind(message) for message in history.messages]
        start = 0.0
        for position, (kind, size, width) in enumerate(zip(kinds, history.sizes,
                                                           drawn_widths(history.sizes, kinds, scale), strict=True)):
            origin = history.origins[position]
            number = f"message {origin}" if origin is not None else "written by the compaction"
            segment = segments[kind]
            segment["x"].append(width)
            segment["base"].append(start)
            segment["y"].append(label)
            segment["text"].append(f"{KINDS[kind][0]} ({number}): {size:,} characters")
            start += width
    figure = go.Figure()
    for kind, segment in segments.items():
        if segment["x"]:
            figure.add_trace(go.Bar(
                orientation="h", x=segment["x"], base=segment["base"], y=segment["y"], name=KINDS[kind][0],
                marker={"color": KINDS[kind][1], "line": {"color": "white", "width": [
                    0.3 if width >= OUTLINED_SHARE * scale else 0 for width in segment["x"]]}},
                hovertext=segment["text"], hovertemplate="%{hovertext}<extra></extra>"))
    if limit is not None:
        figure.add_vline(x=limit, line_dash="dash", line_color=LIMIT_COLOR, annotation_text="CONTEXT_LIMIT",
                         annotation_font_color=LIMIT_COLOR, annotation_position="top")
    figure.update_layout(
        barmode="overlay", bargap=0.3, height=130 + 90 * len(rows), margin={"t": 30, "b": 10, "l": 10, "r": 10},
        xaxis={"title": "characters", "rangemode": "tozero", "tickformat": ","},
        yaxis={"categoryorder": "array", "categoryarray": [label for label, _ in reversed(rows)]},
        legend={"orientation": "h", "y": -0.35 if len(rows) > 1 else -0.6, "x": 0})
    return figure


def row_label(title: str, history: History) -> str:
    return f"{title}<br>{plural(len(history), 'message')} · {compact_number(history.size)} chars"


def tour_numbers(result: PipelineResult) -> dict[str, str]:
    """The figures the tour's texts quote, written for people."""
    stages = {stage.layer: stage for stage in result.stages}
    settings = result.settings
    first = stages["input"]
    reads = sum(1 for message in first.messages for _ in tool_uses(message))
    biggest = max((event.chars for event in result.persisted), default=0)
    sizes = {layer: stage.size for layer, stage in stages.items()}
    final = result.final.size
    return {
        "input_messages": f"{first.count:,}", "input_chars": compact_number(first.size),
        "input_tokens": compact_number(first.history.tokens), "input_reads": f"{max(reads - 1, 0):,}",
        "biggest_output": compact_number(biggest), "persisted_count": plural(len(result.persisted), "output"),
        "preview_chars": f"{settings.preview_chars:,}", "persist_threshold": f"{settings.persist_threshold:,}",
        "l3_chars": compact_number(sizes["L3"]), "max_messages": f"{settings.max_messages:,}",
        "keep_head": f"{settings.keep_head:,}", "snipped_count": f"{sum(s.count for s in result.snipped):,}",
        "l1_messages": f"{stages['L1'].count:,}", "l1_chars": compact_number(sizes["L1"]),
        "keep_recent": f"{settings.keep_recent:,}", "placeholder_count": f"{len(result.placeholders):,}",
        "placeholder_chars": compact_number(sum(event.original_chars for event in result.placeholders)),
        "l2_chars": compact_number(sizes["L2"]), "context_limit": f"{settings.context_limit:,}",
        "l4_chars": compact_number(sizes["L4"]), "final_chars": compact_number(final),
        "saved_share": f"{100 * (1 - final / first.size):.2f} %" if first.size else "0 %",
        "l3_removed": compact_number(first.size - sizes["L3"]), "l1_removed": compact_number(sizes["L3"] - sizes["L1"]),
        "l2_removed": compact_number(sizes["L1"] - sizes["L2"]), "l4_removed": compact_number(sizes["L2"] - sizes["L4"]),
        "summary_author": SUMMARY_AUTHORS.get(result.summary.summarizer if result.summary else "",
                                              "the summariser") if result.summary else "the summariser",
        "cheap_share": f"{100 * (first.size - sizes['L2']) / (first.size - final):.0f} %" if first.size > final
        else "0 %",
        "tutorial_limit": f"{DEFAULTS.context_limit:,}",
    }


def saving_figure(result: PipelineResult) -> go.Figure:
    """The recap: what each layer removed, as a share of the whole saving, on a linear scale, so each bar is as
    tall as the text says (a logarithmic axis drew L4's few thousand characters taller than L3's hundreds of
    thousands)."""
    stages = {stage.layer: stage for stage in result.stages}
    sizes = [stages[layer].size for layer in ("input", "L3", "L1", "L2", "L4")]
    removed = [before - after for before, after in zip(sizes, sizes[1:], strict=False)]
    total = sum(removed) or 1
    layers = ["Layer 3: outputs to disk", "Layer 1: snip the middle", "Layer 2: placeholders", "Layer 4: summary"]
    figure = go.Figure(go.Bar(
        x=layers, y=[100 * value / total for value in removed], marker={"color": ["#f58518", "#bab0ac", "#eeca3b",
                                                                                 "#b279a2"]},
        text=[f"−{compact_number(value)} characters ({100 * value / total:.1f} %)" for value in removed],
        textposition="outside", cliponaxis=False, hovertemplate="%{x}: %{text}<extra></extra>"))
    figure.update_layout(height=420, margin={"t": 40, "b": 10, "l": 10, "r": 10}, showlegend=False,
                         yaxis={"title": "share of the whole saving (%)", "range": [0, 110], "ticksuffix": " %"},
                         xaxis={"tickangle": 0})
    return figure
