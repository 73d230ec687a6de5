"""Words, tables and small calculations for the pages that look at a whole session over time (Replay,
Tune, Compare). No Streamlit here, so they are tested directly."""

from collections.abc import Sequence

import pandas as pd

from compaction.replay import ReplayResult
from compaction.sizes import estimate_tokens
from compaction.sweep import MEASURES

# What changed the history before a model call (compaction.replay.ACTIONS), for legends.
ACTION_TITLES = {
    "L3": "L3 saved a big output to disk",
    "L1": "L1 snipped the middle",
    "L2": "L2 placeholders for old tool results",
    "L4": "L4 summary",
    "mask": "old outputs masked",
    "summary": "summary of all but the last messages",
    "reactive": "reactive compaction (over the model window)",
    "compact_tool": "the model called the compact tool",
}
STRATEGY_TITLES = {
    "pipeline": "Four-layer pipeline (this tutorial)",
    "masking": "Masking only (OpenHands, \"The Complexity Trap\")",
    "summary_keep_last": "Keep the last messages + summary (LangChain)",
}
STRATEGY_SENTENCES = {
    "pipeline": "Saves huge outputs to disk, snips the middle, swaps old tool results for a placeholder, and "
                "asks an LLM for a summary only when the history is still over CONTEXT_LIMIT.",
    "masking": "Replaces every tool output older than the newest KEEP_RECENT with a short mark and never "
               "summarises: the model still sees every message it wrote.",
    "summary_keep_last": "Does nothing until the history is over CONTEXT_LIMIT, then replaces everything but the "
                         "newest REACTIVE_KEEP_LAST messages with one LLM summary.",
}
# The measures the Tune page offers (compaction.sweep.MEASURES has a few more).
TUNE_MEASURES = {name: MEASURES[name] for name in ("peak_tokens", "tokens_sent", "summaries", "tool_output_kept")}
# Sonnet-class list prices in US dollars per million tokens (2025); editable on the Replay page.
INPUT_PRICE = 3.00
OUTPUT_PRICE = 15.00


def limit_tokens(context_limit_chars: int) -> int:
    """CONTEXT_LIMIT (characters) on a tokens axis."""
    return estimate_tokens(context_limit_chars)


def call_from_selection(event) -> int | None:
    """The model call (0-based) of the first point selected in a replay chart, if any."""
    points = ((event or {}).get("selection") or {}).get("points") or []
    for point in points:
        data = point.get("customdata")
        if isinstance(data, list | tuple):
            data = data[0] if data else None
        if isinstance(data, int | float) and not isinstance(data, bool):
            return int(data)
    return None


def cell_from_selection(event) -> tuple[int, int] | None:
    """(row, column) of the first heatmap cell selected in a sweep chart, if any."""
    points = ((event or {}).get("selection") or {}).get("points") or []
    for point in points:
        data = point.get("customdata")
        if isinstance(data, list | tuple) and len(data) >= 2:
            return int(data[0]), int(data[1])
    return None


def estimated_cost(result: ReplayResult, input_price: float, output_price: float) -> tuple[float, float]:
    """(US dollars with compaction, without): context tokens sent at `input_price` per million, plus the
    summaries' output at `output_price` counted at their maximum length (summary_max_tokens)."""
    totals = result.totals
    summary_tokens = totals["summaries"] * result.settings.summary_max_tokens
    with_compaction = (totals["tokens_sent"] * input_price + summary_tokens * output_price) / 1_000_000
    return with_compaction, totals["raw_tokens_sent"] * input_price / 1_000_000


def kept_share(value: float | None) -> str:
    return "no tool output" if value is None else f"{100 * value:.0f} %"


def totals_frame(replays: dict[str, ReplayResult]) -> pd.DataFrame:
    """One row per strategy: its totals over the replay, in estimated tokens."""
    rows = []
    for name, result in replays.items():
        totals = result.totals
        rows.append({
            "strategy": STRATEGY_TITLES.get(name, name),
            "tokens sent": totals["tokens_sent"],
            "saved vs no compaction": (1 - totals["tokens_sent"] / totals["raw_tokens_sent"]
                                       if totals["raw_tokens_sent"] else 0.0),
            "summaries": totals["summaries"],
            "peak context (tokens)": totals["peak_tokens"],
            "tool output kept whole": kept_share(totals["tool_output_kept"]),
        })
    return pd.DataFrame(rows, columns=["strategy", "tokens sent", "saved vs no compaction", "summaries",
                                       "peak context (tokens)", "tool output kept whole"])


# Ten values per setting, the tutorial's default among them, all on the sidebar slider's grid.
DEFAULT_AXES = {
    "context_limit": tuple(range(10_000, 100_001, 10_000)),
    "keep_recent": tuple(range(1, 11)),
    "persist_threshold": tuple(range(5_000, 50_001, 5_000)),
    "max_messages": tuple(range(10, 101, 10)),
    "max_bytes": tuple(range(40_000, 400_001, 40_000)),
    "preview_chars": tuple(range(500, 5_001, 500)),
}


def parse_values(text: str, minimum: int, maximum: int) -> tuple[int, ...]:
    """'10000, 20000 30000' -> (10000, 20000, 30000); ValueError naming a bad or out-of-range value."""
    values = []
    for part in text.replace(",", " ").split():
        cleaned = part.replace("_", "")
        if not cleaned.lstrip("-").isdigit():
            raise ValueError(f"{part!r} is not a whole number")
        value = int(cleaned)
        if not minimum <= value <= maximum:
            raise ValueError(f"{value:,} is outside {minimum:,}–{maximum:,}")
        values.append(value)
    if not values:
        raise ValueError("give at least one value")
    return tuple(sorted(set(values)))


def format_values(values: Sequence[int]) -> str:
    return ", ".join(str(value) for value in values)
