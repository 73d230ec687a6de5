"""The pipeline's knobs, with the tutorial's defaults, validated on construction."""

from dataclasses import asdict, dataclass, fields

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

    def __post_init__(self):
        for field in fields(self):
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
        unknown = set(changes) - set(LIMITS)
        if unknown:
            raise SettingsError(f"unknown setting(s): {', '.join(sorted(unknown))}")
        return Settings(**{**asdict(self), **changes})

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


DEFAULTS = Settings()
