"""Column widths for st.dataframe that fit every value whole.

Left to itself the grid sizes a column to its content, but only up to 500 px, and it leaves out of that
measure any value at least twice as wide as the column's mean: one long project name, or the only date in
a column of blanks, is cut off. So the page gives each column the width of its widest text as the grid
draws it: the text as each column's format writes it, at the widths Source Sans (the grid's font, 14 px)
has in chromium, rounded up to half a pixel; a character not in the table counts as 1 em.
"""

import math
from collections.abc import Iterable
from datetime import datetime

import pandas as pd

FONT_PX = 14.0
_WIDTHS = {3.0: " ", 3.5: "ij'.,:;|", 4.0: "lI", 4.5: "f!()-[]{}", 5.0: "rt/\\", 6.0: "sz\"*?", 6.5: "cx",
           7.0: "0123456789ekvyFJLY#$+<=>^_~–", 7.5: "agESVX", 8.0: "bdhnopquACPRTZ`", 8.5: "BK", 9.0: "DG&",
           9.5: "HNOQU", 10.5: "wM", 11.5: "W", 12.0: "m%@↳", 13.5: "…"}
CHAR_PX = {char: width for width, chars in _WIDTHS.items() for char in chars}


class _HalfPixels(dict):
    """Each character's width in half pixels as a character code, for str.translate; 1 em when unknown."""

    def __missing__(self, code: int) -> int:
        return int(FONT_PX * 2)


_HALF_PIXELS = _HalfPixels({ord(char): int(width * 2) for char, width in CHAR_PX.items()})
PADDING_PX = 8  # the grid's cell padding, each side
HEADER_EXTRA_PX = 28  # room the grid keeps beside a header's title for its icon
BORDER_PX = 2
# How each kind of column writes a value (the column formats the Sessions page sets); text as it is
KINDS = ("text", "count", "share", "usd", "time")


def text_px(text: str) -> float:
    # translated to one byte per character holding its width, summed in C: a table of 1,000 sessions has
    # some 35,000 values to measure at every rerun
    return sum(text.translate(_HALF_PIXELS).encode("latin-1")) / 2


def shown(value, kind: str) -> str:
    """`value` as the grid writes it in a column of `kind`; '' for a missing one."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return ""
    if kind == "count":
        return f"{value:,.0f}"
    if kind == "share":
        return f"{value * 100:.2f}%"  # the grid drops trailing zeros: this is the widest it writes
    if kind == "usd":
        return f"${value:.4f}"
    if kind == "time" and isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S") + (value.strftime("%z")[:3] + ":" + value.strftime("%z")[3:]
                                                       if value.tzinfo else "")
    return str(value)


def column_px(title: str, texts: Iterable[str]) -> int:
    """The width (px) that shows the title and every text whole."""
    widest = max((text_px(text) for text in texts), default=0.0)
    return math.ceil(max(widest + 2 * PADDING_PX, text_px(title) + 2 * PADDING_PX + HEADER_EXTRA_PX)) + BORDER_PX


def fitting_widths(frame: pd.DataFrame, kinds: dict[str, str]) -> dict[str, int]:
    """Per column title of `frame`, the width showing all of it; `kinds` gives a column's kind (text when
    it is not named)."""
    return {title: column_px(title, {shown(value, kinds.get(title, "text")) for value in frame[title]})
            for title in frame.columns}
