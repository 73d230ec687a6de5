"""The sidebar's sliders: each setting's widget key (its URL parameter), range and step, with its words."""

from dataclasses import dataclass

from compaction.model import DEFAULTS, HELP
from dashboard.render.setting_words import SETTING_WORDS


@dataclass(frozen=True)
class SliderSpec:
    key: str  # widget key and URL query parameter (kept as they are, so shared links keep working)
    field: str  # Settings field
    minimum: int
    maximum: int
    step: int

    @property
    def label(self) -> str:
        """Plain words first, the tutorial's name second, and the unit."""
        return SETTING_WORDS[self.field].label

    @property
    def effect(self) -> str:
        return SETTING_WORDS[self.field].effect

    @property
    def default(self) -> int:
        return getattr(DEFAULTS, self.field)

    @property
    def help(self) -> str:
        return f"{HELP[self.field]} {self.effect} Tutorial default: {self.default:,}."


# Ceilings for real windows: CONTEXT_LIMIT up to 5,000,000 characters (1 M tokens at 4 characters a token,
# or at a calibrated log's own ratio), KEEP_RECENT and max_messages high enough that L2 and L1 need never act
# on a long session (the agent's own regime). Sizes step by 100 characters, the rounding of Tune's token axes.
MAIN_SLIDERS = (
    SliderSpec("CONTEXT_LIMIT", "context_limit", 1_000, 5_000_000, 100),
    SliderSpec("KEEP_RECENT", "keep_recent", 0, 1_000, 1),
    SliderSpec("PERSIST_THRESHOLD", "persist_threshold", 1_000, 1_000_000, 100),
)
ADVANCED_SLIDERS = (
    SliderSpec("MAX_MESSAGES", "max_messages", 4, 20_000, 1),
    SliderSpec("L3_BUDGET", "max_bytes", 0, 1_000_000, 100),
    SliderSpec("PREVIEW_CHARS", "preview_chars", 0, 20_000, 100),
)
SLIDERS = MAIN_SLIDERS + ADVANCED_SLIDERS
