"""The sweep heatmaps' colours and words: the colour bar named with its unit (and ticks in it), and each
cell's text in the colour that contrasts most with its cell (white on the dark blues, black on the
rest), at least 4.5:1 (WCAG AA): plotly's own choice left dark text on mid-blue cells hard to read. No Streamlit here."""

import math
from collections.abc import Sequence

from plotly.colors import sample_colorscale, unlabel_rgb

from compaction.measures import MEASURES

DARK_TEXT, LIGHT_TEXT = "#000000", "#ffffff"
# the relative luminance where white and black text contrast equally with the cell (WCAG): whichever is
# picked, the text contrasts at least 4.5:1 with its cell
LIGHT_BELOW = 0.179
UNIT_TITLES = {"usd": "US$", "share": "share", "tokens": "tokens", "characters": "characters"}
COUNT_TITLES = {"summaries": "summaries", "blind_references": "references", "reactive": "compactions"}
TICK_FORMATS = {"usd": "$,.2f", "share": ".0%", "tokens": ",", "characters": ",", "count": ","}


def scale(measure: str) -> str:
    """Darker is better: Blues where more is better, reversed where less is."""
    return "Blues" if measure in MEASURES and MEASURES[measure].better == "higher" else "Blues_r"


def unit_of(measure: str) -> str:
    return MEASURES[measure].unit if measure in MEASURES else "count"


def colorbar(measure: str, statistic: str | None = None) -> dict:
    """The colour bar: its unit as its title ('US$', 'share', 'summaries'), after `statistic` when given."""
    unit = unit_of(measure)
    words = UNIT_TITLES.get(unit) or COUNT_TITLES.get(measure, "count")
    return {"title": {"text": f"{statistic}, {words}" if statistic else words, "side": "right"},
            "tickformat": TICK_FORMATS.get(unit, ",")}


def _luminance(rgb: str) -> float:
    def channel(value: float) -> float:
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = unlabel_rgb(rgb)
    return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)


def text_colors(values: Sequence[float | None], measure: str) -> list[str]:
    """For each value, the text colour that reads on the colour the heatmap gives it (the values span the scale)."""
    present = [v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
    low, high = (min(present), max(present)) if present else (0.0, 1.0)
    colors = []
    for value in values:
        if value is None or (isinstance(value, float) and math.isnan(value)):
            colors.append(DARK_TEXT)
            continue
        place = 0.5 if high == low else (value - low) / (high - low)
        cell = sample_colorscale(scale(measure), [place])[0]
        colors.append(LIGHT_TEXT if _luminance(cell) < LIGHT_BELOW else DARK_TEXT)
    return colors
