"""Words, tables and small calculations for the pages that look at a whole session over time (Replay,
Tune, Compare). No Streamlit here, so they are tested directly."""

from collections.abc import Sequence

from compaction.replay import ReplayResult
from compaction.sizes import estimate_tokens
from compaction.strategies import REGISTRY
from compaction.sweep import MEASURES

# What changed the history before a model call (compaction.replay.ACTIONS), for legends.
ACTION_TITLES = {
    "L3": "L3 saved a big output to disk",
    "L1": "L1 snipped the middle",
    "L2": "L2 placeholders for old tool results",
    "L4": "L4 summary",
    "mask": "old outputs masked",
    "summary": "older messages summarised",
    "reactive": "reactive compaction (over the model window)",
    "compact_tool": "the model called the compact tool",
    "persist": "a big output saved to a file",
    "microcompact": "microcompact cleared old tool results",
    "auto_compact": "auto-compact summary",
    "clear_tool_uses": "old tool results cleared in this request",
    "clear_thinking": "old thinking cleared in this request",
    "compact": "compaction block (server-side summary)",
    "forget": "middle of the history forgotten",
    "condense": "older half condensed into a summary",
}
# The strategies' short names (legends, tables) and one sentence each, from the registry.
STRATEGY_TITLES = {name: spec.label for name, spec in REGISTRY.items()}
STRATEGY_SENTENCES = {name: spec.description for name, spec in REGISTRY.items()}
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
