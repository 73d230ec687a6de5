"""Every measure a replay's totals carry that a sweep, Tune, Compare or a corpus can show: its name, its
label, its unit, which way is better, and what a darker Tune cell means. One list, so a new measure is
one entry here (and its value in ReplayResult.totals); the CLI's choices, the tables, the colour scales
and the captions all read it."""

from dataclasses import dataclass

from compaction.errors import SettingsError

UNITS = ("tokens", "characters", "share", "usd", "count")


@dataclass(frozen=True)
class Measure:
    name: str  # the key in ReplayResult.totals, stable: CLI, URLs and JSON use it
    label: str
    unit: str  # one of UNITS
    better: str  # "lower" or "higher": a direction, for the trade-off front and the colour scales
    # Tune's caption: what a darker cell means, never that it is better (each measure is one side of a
    # trade-off: fewer tokens sent can mean more the model no longer sees)
    darker: str

    def text(self, value, share_digits: int = 1) -> str:
        """The value in its unit: a share in percent, dollars with cents, else a count."""
        if value is None:
            return "-"
        if self.unit == "share":
            return f"{value:.{share_digits}%}"
        if self.unit == "usd":
            return f"${value:,.2f}"
        return f"{value:,.0f}" if isinstance(value, float) and value.is_integer() else f"{value:,}"


MEASURES: dict[str, Measure] = {measure.name: measure for measure in (
    Measure("peak_tokens", "Largest context sent (estimated tokens)", "tokens", "lower",
            "darker = a smaller largest context"),
    Measure("tokens_sent", "Tokens sent over the whole session", "tokens", "lower", "darker = fewer tokens sent"),
    Measure("saved_share", "Share of tokens saved against no compaction, over the calls both could make", "share",
            "higher",
            "darker = a larger share saved"),
    Measure("cost_usd", "Cost with prompt caching (US$)", "usd", "lower", "darker = a lower cost with prompt caching"),
    Measure("cost_usd_no_cache", "Cost without prompt caching (US$)", "usd", "lower",
            "darker = a lower cost without prompt caching"),
    Measure("cache_hit_rate", "Share of input read from the cache", "share", "higher",
            "darker = more of the input read from the cache"),
    Measure("blind_references", "Blind references (terms the model used but no longer saw)", "count", "lower",
            "darker = fewer names the model used but no longer saw"),
    Measure("artifact_retention", "Share of files, errors and constraints still sent at the end", "share", "higher",
            "darker = more of the files, errors and constraints still sent at the end"),
    Measure("summaries", "Summaries written", "count", "lower", "darker = fewer summaries written"),
    Measure("tool_output_kept", "Share of tool output the model saw whole", "share", "higher",
            "darker = more tool output seen whole"),
    Measure("reactive", "Reactive compactions", "count", "lower", "darker = fewer reactive compactions"),
    Measure("peak_chars", "Largest context sent (characters)", "characters", "lower",
            "darker = a smaller largest context"),
)}


def measure(name: str) -> Measure:
    """The measure called `name`; SettingsError naming the choices otherwise."""
    if name not in MEASURES:
        raise SettingsError(f"unknown measure {name!r}; choose one of {', '.join(MEASURES)}")
    return MEASURES[name]


def measure_text(value, name: str, share_digits: int = 1) -> str:
    """`value` of the measure `name` in its unit (a name not in the registry is written as a count)."""
    found = MEASURES.get(name)
    return (found or Measure(name, name, "count", "lower", "")).text(value, share_digits)
