"""The sidebar's settings: each one's widget key (its URL parameter), its range (LIMITS: what the box
takes), the round values its slider offers on a log scale, and its words.

A linear track from 1,000 to 5,000,000 on a 240-pixel sidebar moved CONTEXT_LIMIT by 20,000 a pixel: each
setting's slider instead steps through round values (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 in each decade),
some 7 pixels apart, over a range that holds the tutorial's values and the agents' own regimes; a box
beside it takes any exact value within the limits. No Streamlit here.
"""

from dataclasses import dataclass

from compaction.model import DEFAULTS, HELP
from dashboard.render.setting_words import SETTING_WORDS

ROUND_SERIES = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0)  # each a step of 20 to 33 %


def round_values(low: int, high: int, zero: bool = False) -> tuple[int, ...]:
    """The whole numbers of ROUND_SERIES × 10^k from `low` to `high`, and 0 first when `zero`."""
    values = {0} if zero else set()
    power = 1
    while power <= high:
        values.update(value for m in ROUND_SERIES if (value := round(m * power)) == m * power
                      and max(low, 1) <= value <= high)
        power *= 10
    return tuple(sorted(values))


@dataclass(frozen=True)
class SliderSpec:
    key: str  # widget key and URL query parameter (kept as they are, so shared links keep working)
    field: str  # Settings field
    minimum: int  # the limits of the box (and of Tune's axes)
    maximum: int
    step: int  # the box's step, and the rounding of Tune's axes
    track: tuple[int, int] | None = None  # the slider's range when narrower than the limits

    @property
    def label(self) -> str:
        """Plain words first, the tutorial's name second, and the unit."""
        return SETTING_WORDS[self.field].label

    @property
    def name(self) -> str:
        return SETTING_WORDS[self.field].name

    @property
    def effect(self) -> str:
        return SETTING_WORDS[self.field].effect

    @property
    def default(self) -> int:
        return getattr(DEFAULTS, self.field)

    @property
    def help(self) -> str:
        return f"{HELP[self.field]} {self.effect} Tutorial default: {self.default:,}."

    def options(self, current: int) -> list[int]:
        """The slider's values: round ones over its track, with the tutorial's default and `current` (a
        value typed in the box, or set by Tune) among them, so the slider can show it."""
        low, high = self.track or (self.minimum, self.maximum)
        return sorted({*round_values(max(low, self.step), high, zero=self.minimum == 0), self.default, current})

    @property
    def box_step(self) -> int:
        """What the box's arrows add: the round step (a power of ten times `step`) of 1 to 10 % of the
        tutorial's default."""
        step = self.step
        while step * 100 <= self.default:
            step *= 10
        return step


# LIMITS: CONTEXT_LIMIT up to 5,000,000 characters (1 M tokens at 4 characters a token, or at a calibrated
# log's own ratio), KEEP_RECENT and max_messages high enough that L2 and L1 need never act on a long session
# (the agent's own regime). The slider of CONTEXT_LIMIT spans 2,000 (below the tour's 8,000) to 2,500,000
# (a 1 M-token model compacting at half its window), 32 values 7.5 pixels apart; the box reaches the limits.
MAIN_SLIDERS = (
    SliderSpec("CONTEXT_LIMIT", "context_limit", 1_000, 5_000_000, 100, track=(2_000, 2_500_000)),
    SliderSpec("KEEP_RECENT", "keep_recent", 0, 1_000, 1),
    SliderSpec("PERSIST_THRESHOLD", "persist_threshold", 1_000, 1_000_000, 100),
)
ADVANCED_SLIDERS = (
    SliderSpec("MAX_MESSAGES", "max_messages", 4, 20_000, 1),
    SliderSpec("L3_BUDGET", "max_bytes", 0, 1_000_000, 100, track=(10_000, 1_000_000)),
    SliderSpec("PREVIEW_CHARS", "preview_chars", 0, 20_000, 100),
)
SLIDERS = MAIN_SLIDERS + ADVANCED_SLIDERS
