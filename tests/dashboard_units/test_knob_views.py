"""Tune's views of an agent's knobs without a browser: the line chart of one knob, the sentence on what the
agent paid, where a knob makes no difference, the trade-off of a line, and a click picking the point
whose settings are exported."""

import math
from dataclasses import replace

import pytest
import streamlit

from compaction import prepare
from compaction.generate import generate
from compaction.sweep.sweeps import sweep
from dashboard.render.sweep_line import PAID_NAME, sweep_line_figure
from dashboard.render.tradeoff_chart import tradeoff_figure
from dashboard.render.tune_notes import OwnSetting, cost_against_log, knob_notes
from dashboard.ui import agent_tune

SESSION = prepare(generate("realistic", turns=60, seed=3))
LIMITS = (3_000, 6_000, 12_000, 500_000, 1_000_000)  # the last two are never reached


@pytest.fixture(scope="module")
def line():
    return sweep(SESSION, ("auto_compact_token_limit", LIMITS), strategy="codex")


def test_a_line_chart_has_a_point_per_value_the_default_and_what_the_agent_paid(line):
    labels = [f"{value:,}" for value in LIMITS]
    figure = sweep_line_figure(line, "cost_usd", labels, "auto_compact_token_limit", picked=2, default=4,
                               default_name="the agent's own setting", paid=0.5)
    points, picked = figure.data
    assert list(points.x) == labels and list(points.y) == line.line("cost_usd")
    assert [tuple(cell) for cell in points.customdata] == [(0, column) for column in range(5)]
    assert picked.name == "exported below" and list(picked.x) == ["12,000"]
    assert [tuple(cell) for cell in picked.customdata] == [(0, 2)]
    texts = [note.text for note in figure.layout.annotations]
    assert texts == ["the agent's own setting", f"{PAID_NAME}: $0.50"]
    assert [shape.x0 for shape in figure.layout.shapes if shape.type == "line"][0] == 4
    other = sweep_line_figure(line, "summaries", labels, "auto_compact_token_limit", paid=0.5)
    assert len(other.data) == 1 and not other.layout.annotations  # the cost line only on the cost
    assert other.layout.yaxis.title.text == "Summaries written"


def test_a_cell_with_nothing_to_measure_is_a_gap_not_a_zero(line):
    figure = sweep_line_figure(line, "tool_output_kept", [], "limit")
    assert all(value is None or math.isnan(value) or 0 <= value <= 1 for value in figure.data[0].y)
    assert list(figure.data[0].x) == [f"{value:,}" for value in LIMITS]


def test_the_sentence_sets_the_cells_against_the_agents_own_setting_replayed(line):
    """Issue 37: like for like, the agent's own current setting replayed on the same calls, and what the log
    records beside it (for how many calls, when it records usage for only some)."""
    costs = line.line("cost_usd")
    cheapest = min(costs)
    own = OwnSetting(cheapest / 2, "Codex CLI's own setting (window_tokens 272,000)", 30.23, 16, 16)
    above = cost_against_log(line, own)
    assert above == ("No setting here costs less than Codex CLI's own setting (window_tokens 272,000), replayed on the "
                     f"same calls (${cheapest / 2:,.2f}): the cheapest (auto_compact_token_limit "
                     f"{LIMITS[costs.index(cheapest)]:,}) costs ${cheapest:,.2f}. Its log records $30.23.")
    assert cost_against_log(line, replace(own, cost=max(costs) + 1)).startswith("Every setting here costs less than")
    between = sorted(costs)[1] + 0.01
    assert cost_against_log(line, replace(own, cost=between)).startswith(
        f"2 of 5 settings cost less than Codex CLI's own setting (window_tokens 272,000), replayed on the same calls "
        f"(${between:,.2f})")
    partial = cost_against_log(line, replace(own, recorded_calls=14, cost_over_recorded=27.5))
    assert partial.endswith("Its log records $30.23 for 14 of its 16 calls (the other 2 recorded no usage), so that "
                            "figure covers only those; the replays cover all. Over those 14 calls the setting "
                            "replayed costs $27.50.")
    assert cost_against_log(line, replace(own, recorded=None)).endswith("Its log records no cost.")
    assert cost_against_log(line, None) is None  # a log of no known agent that records no cost


def test_where_a_knob_makes_no_difference(line):
    notes = knob_notes(line, lambda _name, value: f"{value:,}", "Codex CLI")
    assert notes == ["auto_compact_token_limit makes no difference from 500,000 up: Codex CLI never compacts there."]
    flat = sweep(SESSION, ("auto_compact_token_limit", (500_000, 900_000)), strategy="codex")
    assert knob_notes(flat, lambda _name, value: f"{value:,}", "Codex CLI") == [
        "auto_compact_token_limit makes no difference anywhere from 500,000 to 900,000: Codex CLI never compacts "
        "there."]
    # Claude Code's buffer runs the other way: the smallest buffers compact latest, here never
    grid = sweep(SESSION, ("buffer_tokens", (13_000, 20_000, 170_000)), ("window_tokens", (210_000, 250_000)),
                 strategy="claude-code")
    assert "buffer_tokens makes no difference up to 20,000 at window_tokens 210,000: Claude Code never compacts there." in \
        knob_notes(grid, lambda _name, value: f"{value:,}", "Claude Code")


def test_the_trade_off_of_a_line_has_a_point_per_setting(line):
    points, _, current = tradeoff_figure(line, current=(0, 1), current_name="exported above").data
    assert len(points.x) == 5 and current.name == "exported above" and points.name == "a setting"
    assert points.text[0].startswith("auto_compact_token_limit 3,000<br>")


def test_a_click_picks_the_point_exported_on_the_grid_on_show(monkeypatch):
    session = {}
    monkeypatch.setattr(streamlit, "session_state", session)
    session[agent_tune._GRID] = ("grid", 1, 5)
    session[agent_tune.CHART_KEY] = {"selection": {"points": [{"customdata": [0, 3]}]}}
    agent_tune._pick_on_chart()
    session[agent_tune.TRADE_OFF_KEY] = {"selection": {"points": [{"customdata": [0, 9]}]}}  # not on this grid
    agent_tune._pick_on_trade_off()
    assert session[agent_tune._PICKED] == {"grid": (0, 3)}
