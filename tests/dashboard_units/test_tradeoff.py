"""Tune's trade-off view: every cell a point, the front joined, a click applies a cell."""

import streamlit

from compaction import prepare
from compaction.generate import generate
from compaction.sweep.sweeps import sweep
from dashboard.render.tradeoff_chart import tradeoff_figure
from dashboard.ui import tuning

SESSION = prepare(generate("realistic", turns=60, seed=9))


def test_every_cell_is_a_point_and_the_front_is_the_cells_no_other_beats():
    result = sweep(SESSION, ("context_limit", (5_000, 20_000, 80_000)), ("keep_recent", (0, 2, 8)))
    points, front_line, current = tradeoff_figure(result, current=(1, 1)).data
    assert len(points.x) == 9 and current.name == "current settings"
    cells = [tuple(cell) for cell in points.customdata]
    values = {cell: (x, y) for cell, x, y in zip(cells, points.x, points.y, strict=True)}
    on_front = {cell for cell in cells if not any(
        other != values[cell] and other[0] <= values[cell][0] and other[1] <= values[cell][1]
        for other in values.values())}
    assert on_front == result.trade_off_front()
    assert list(front_line.x) == sorted(values[cell][0] for cell in on_front)


def test_clicking_a_point_applies_its_settings(monkeypatch):
    session = {}
    monkeypatch.setattr(streamlit, "session_state", session)
    result = sweep(SESSION, ("context_limit", (10_000, 20_000)), ("keep_recent", (1, 2)))
    tuning.show_grid(result)
    session[tuning.TRADE_OFF_KEY] = {"selection": {"points": [{"customdata": [0, 1]}]}}
    tuning.apply_clicked_point()
    assert session["CONTEXT_LIMIT"] == 20_000 and session["KEEP_RECENT"] == 1
