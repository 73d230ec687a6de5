"""Column widths that fit every value whole, worked out by hand from the font's character widths."""

import math

import pandas as pd

from dashboard.render.grid_widths import (
    BORDER_PX,
    HEADER_EXTRA_PX,
    PADDING_PX,
    column_px,
    fitting_widths,
    shown,
    text_px,
)


def test_text_is_as_wide_as_its_characters_and_an_unknown_one_is_one_em():
    assert text_px("0a-") == 7.0 + 7.5 + 4.5
    assert text_px("↳ m") == 12.0 + 3.0 + 12.0
    assert text_px("é") == 14.0


def test_values_are_written_as_their_columns_write_them():
    assert shown(1234567, "count") == "1,234,567"
    assert shown(0.9818, "share") == "98.18%"
    assert shown(0.004434, "usd") == "$0.0044"
    assert shown(pd.Timestamp("2026-04-12T09:00:01Z"), "time") == "2026-04-12 09:00:01+00:00"
    assert shown(None, "usd") == shown(float("nan"), "count") == shown(pd.NaT, "time") == ""


def test_a_column_fits_its_widest_value_or_its_title():
    # one long value among short ones: the grid alone would leave it out of its measure
    texts = ["ab"] * 7 + ["56cfacee57fb9791a4f38e"]
    assert column_px("project", texts) == math.ceil(text_px(texts[-1]) + 2 * PADDING_PX) + BORDER_PX
    assert column_px("recorded cost (US$)", ["$0.01"]) == math.ceil(
        text_px("recorded cost (US$)") + 2 * PADDING_PX + HEADER_EXTRA_PX) + BORDER_PX
    frame = pd.DataFrame({"saved": [0.5, None], "path": ["a/b.json", ""]})
    assert fitting_widths(frame, {"saved": "share"}) == {"saved": column_px("saved", ["50.00%", ""]),
                                                         "path": column_px("path", ["a/b.json", ""])}
