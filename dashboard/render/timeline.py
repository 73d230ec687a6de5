"""Words, tables and small calculations for the pages that look at a whole session over time (Replay,
Tune, Compare). No Streamlit here, so they are tested directly."""

from collections.abc import Sequence

from compaction.importers import has_tokens, input_of
from compaction.measures import MEASURES
from compaction.model import DEFAULT_TOKEN_MODEL, TokenModel
from compaction.replay import ReplayResult
from compaction.strategies import REGISTRY, all_actions
from dashboard.render.units import compact_number

# What changed the history before a model call, for legends: each strategy declares its actions.
ACTION_TITLES = {name: action.title for name, action in all_actions().items()}
# The strategies' short names (legends, tables) and one sentence each, from the registry.
STRATEGY_TITLES = {name: spec.label for name, spec in REGISTRY.items()}
# The measures the Tune page offers (the registry has a few more), with their labels.
TUNE_MEASURES = {name: MEASURES[name].label for name in (
    "cost_usd", "blind_references", "artifact_retention", "cache_hit_rate", "tokens_sent", "peak_tokens",
    "cost_usd_no_cache", "summaries", "tool_output_kept")}


def limit_tokens(context_limit_chars: int, model: TokenModel = DEFAULT_TOKEN_MODEL, overhead_chars: int = 0) -> int:
    """CONTEXT_LIMIT (characters of messages) on a chart of the tokens each call sends: a history of that
    many characters, sent with the system prompt, tools and what the log does not hold."""
    return model.tokens(context_limit_chars + overhead_chars)


def limit_name(context_limit_chars: int, model: TokenModel = DEFAULT_TOKEN_MODEL, overhead_chars: int = 0,
               unit: str = "tokens", gap: str = " ") -> str:
    """CONTEXT_LIMIT in one form on every page: the setting (characters) and, where sizes are tokens, the
    tokens a call sends at that size, with the overhead."""
    text = f"CONTEXT_LIMIT{gap}{context_limit_chars:,} chars"
    if unit == "chars":
        return text
    return f"{text}{gap}≈ {compact_number(limit_tokens(context_limit_chars, model, overhead_chars))} tokens{gap}with the overhead"


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


def tokens_sentence(result: ReplayResult) -> str:
    """How this replay turns characters into tokens, and how close that is to what the log recorded."""
    calibration = result.calibration
    run = result.recorded_totals
    if calibration is None and result.totals["recorded_from_totals"] and has_tokens(run):
        estimated = sum(call.raw_tokens for call in result.calls)
        return (f"No call of this file records its own usage, only the run's totals: {input_of(run):,} input tokens "
                f"over the whole run, where the estimate of its calls without compaction comes to {estimated:,}. "
                "Tokens are estimated as characters / 4, without the system prompt and tools an agent sends that "
                "the file does not hold.")
    if calibration is None:
        return ("No recorded usage in this file: tokens are estimated as characters / 4, without the system "
                "prompt and tools an agent sends that the file does not hold.")
    return (f"Tokens calibrated on what this log recorded: estimates within {100 * calibration.median_abs_error:.1f} % "
            f"of it (median over {calibration.calls:,} calls before the log's first compaction); "
            f"{calibration.tokens_per_char:.3f} tokens per character, plus {calibration.overhead_tokens:,} tokens a "
            "call of system prompt and tools that the log does not hold.")


def baseline_sentence(result: ReplayResult) -> str | None:
    """Where the uncompacted agent would stop, if it would."""
    stop = result.raw_stop_call
    if stop is None:
        return None
    return (f"Without compaction the agent stops at call {stop + 1:,} of {len(result.calls):,}: its prompt "
            f"({result.calls[stop].raw_tokens:,} tokens) is over the model window of "
            f"{result.model_window_tokens:,}, and the model's API refuses it as too long. The figures without "
            "compaction count only the calls before it.")


def cache_check_sentence(result: ReplayResult) -> str | None:
    check = result.totals["cache_model_check"]
    if not check or check["ratio"] is None:
        return None
    return (f"Check of the cache model: applied to what the agent actually sent (its history, started afresh at "
            f"its own compactions), it reads {check['modelled_cache_read_tokens']:,} tokens from the cache, "
            f"{100 * check['ratio']:.0f} % of the {check['recorded_cache_read_tokens']:,} the log recorded.")


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
