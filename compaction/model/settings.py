"""The pipeline's knobs, with the tutorial's defaults, validated on construction: the tutorial's whole
numbers (LIMITS), and what no layer may touch (KEEP_FIELDS: model/keep.py)."""

from dataclasses import asdict, dataclass, fields
from typing import Any

from compaction.errors import SettingsError

# (minimum, maximum) per setting: outside them a setting is a typo, not a choice.
LIMITS = {
    "context_limit": (1, 100_000_000),
    "keep_recent": (0, 1_000_000),
    "persist_threshold": (1, 1_000_000_000),
    "max_messages": (4, 10_000_000),
    "max_bytes": (0, 1_000_000_000),
    "preview_chars": (0, 1_000_000),
    "min_placeholder_chars": (0, 1_000_000),
    "summary_input_cap": (1_000, 10_000_000),
    "summary_max_tokens": (1, 64_000),
    "keep_head": (1, 1_000),
    "reactive_keep_last": (1, 1_000),
}

# Keep verbatim: names, each a non-empty text (model/keep.py says what they keep)
KEEP_FIELDS = ("keep_tools", "keep_inputs")

HELP = {
    "context_limit": "Characters of history above which L4 has an LLM summarise everything.",
    "keep_recent": "L2 keeps this many newest tool results whole; older ones become a placeholder.",
    "persist_threshold": "L3 saves a single tool output longer than this to disk, keeping a preview.",
    "max_messages": "L1 snips the middle of the history when it has more messages than this.",
    "max_bytes": "L3 acts only when the last message's tool results total more than this.",
    "preview_chars": "Characters of a saved output kept in context as a preview.",
    "min_placeholder_chars": "L2 replaces only tool results longer than this.",
    "summary_input_cap": "Characters of the history's JSON sent to the summariser.",
    "summary_max_tokens": "Longest summary the LLM may write, in tokens.",
    "keep_head": "L1 keeps this many first messages (the task) before the snip marker.",
    "reactive_keep_last": "Reactive compaction keeps this many newest messages whole.",
    "keep_tools": "Tools whose calls and results no layer may touch (names, as the log's tool calls have them).",
    "keep_inputs": "Tool calls whose input holds one of these texts (a path such as CLAUDE.md) are kept, "
                   "with their results, as the kept tools are.",
}


@dataclass(frozen=True)
class Settings:
    """Defaults are those of the tutorial's code (s08_context_compact)."""

    context_limit: int = 50_000
    keep_recent: int = 3
    persist_threshold: int = 30_000
    max_messages: int = 50
    max_bytes: int = 200_000
    preview_chars: int = 2_000
    min_placeholder_chars: int = 120
    summary_input_cap: int = 80_000
    summary_max_tokens: int = 2_000
    keep_head: int = 3
    reactive_keep_last: int = 5
    # never touched by any layer: the calls of these tools, and those whose input holds one of these texts
    keep_tools: tuple[str, ...] = ()
    keep_inputs: tuple[str, ...] = ()

    def __post_init__(self):
        for name in KEEP_FIELDS:
            object.__setattr__(self, name, _names(name, getattr(self, name)))
        for field in fields(self):
            if field.name in KEEP_FIELDS:
                continue
            value = getattr(self, field.name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise SettingsError(f"{field.name} must be a whole number, got {value!r}")
            low, high = LIMITS[field.name]
            if not low <= value <= high:
                raise SettingsError(f"{field.name} must be between {low:,} and {high:,}, got {value:,}")
        if self.keep_head >= self.max_messages:
            raise SettingsError(
                f"max_messages ({self.max_messages}) must be larger than keep_head ({self.keep_head})")

    def replace(self, **changes) -> "Settings":
        unknown = set(changes) - set(LIMITS) - set(KEEP_FIELDS)
        if unknown:
            raise SettingsError(f"unknown setting(s): {', '.join(sorted(unknown))}")
        return Settings(**{**asdict(self), **changes})

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def keeps(self) -> bool:
        """Whether some tool call is to be kept verbatim."""
        return bool(self.keep_tools or self.keep_inputs)


def _names(field: str, value: Any) -> tuple[str, ...]:
    """A keep setting as a tuple of distinct texts, in order ('a, b' and lists accepted)."""
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise SettingsError(f"{field} must be names (texts), got {value!r}")
    return tuple(dict.fromkeys(v.strip() for v in value if v.strip()))


DEFAULTS = Settings()
