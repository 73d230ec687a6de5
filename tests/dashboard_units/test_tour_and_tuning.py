"""The tour's blocks, numbers and texts, and the Tune page's link to the sidebar sliders (its callbacks
called directly, on a plain dict standing in for st.session_state)."""

import string

import pytest
import streamlit

from compaction import prepare, run_pipeline
from compaction.generate import generate
from compaction.sweep.sweeps import sweep
from dashboard.render.tour import (
    KINDS,
    TOUR_SETTINGS,
    blocks_figure,
    drawn_widths,
    message_kind,
    tour_numbers,
)
from dashboard.render.tour_text import STEPS
from dashboard.ui import tuning

SEED_DEMO = prepare(generate("seed-demo"))


@pytest.fixture(scope="module")
def tour_run():
    return run_pipeline(SEED_DEMO, TOUR_SETTINGS)


def test_every_layer_acts_on_the_tour(tour_run):
    sizes = [stage.size for stage in tour_run.stages]
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == 5  # each of the four layers shrank it
    assert tour_run.summary.triggered and not tour_run.summary.error


def test_message_kinds_follow_the_layers(tour_run):
    kinds = {stage.layer: [message_kind(m) for m in stage.messages] for stage in tour_run.stages}
    assert set(kinds["input"]) == {"request", "reply", "output"}
    assert kinds["L3"][-1] == "preview"
    assert kinds["L1"].count("marker") == 1
    assert "placeholder" in kinds["L2"]
    assert kinds["L4"] == ["summary"]


def test_blocks_fill_each_row_end_to_end_and_none_vanishes(tour_run):
    before, after = tour_run.stages[0].history, tour_run.stages[1].history
    figure = blocks_figure([("Before", before), ("After", after)], limit=8_000)
    scale = before.size  # the widest row
    for label, history in (("Before", before), ("After", after)):
        segments = sorted((base, width, trace.name) for trace in figure.data
                          for base, width, row in zip(trace.base, trace.x, trace.y, strict=True) if row == label)
        assert len(segments) == len(history.messages)
        ends = [base + width for base, width, _ in segments]
        assert [base for base, _, _ in segments[1:]] == pytest.approx(ends[:-1])  # no gap, no overlap
        assert ends[-1] == pytest.approx(sum(history.sizes))  # the row is as long as its messages together
        if label == "Before":  # room for every block's minimum: none thinner than 0.2 % of the chart
            assert min(width for _, width, _ in segments) >= 0.002 * scale
        request = [width for _, width, name in segments if name == "the person's request"]
        assert request and request[0] >= 0.015 * scale * 0.999  # the request (50 characters) shows
    preview = [width for trace in figure.data if trace.name == "preview of an output saved to disk"
               for width, row in zip(trace.x, trace.y, strict=True) if row == "After"]
    assert preview and preview[0] >= 0.015 * scale * 0.999  # what L3 left (2 K characters of 697 K) shows
    hover = [text for trace in figure.data for text in trace.hovertext]
    assert "the person's request (message 0): 50 characters" in hover  # the real size, on hover
    assert {trace.name for trace in figure.data} <= {text for text, _ in KINDS.values()}
    assert figure.layout.shapes[0].x0 == 8_000


def test_short_blocks_widen_and_the_long_ones_give_way():
    sizes = [50, 126, 815, 52, 126, 638_000]
    kinds = ["request", "reply", "output", "marker", "reply", "output"]
    # minimums at a scale of 640,000: 1.5 % (9,600) for the request and the note, 0.4 % (2,560) for the rest;
    # the big output gets what is left of the row's 639,169 characters: 639,169 - 2 x 9,600 - 3 x 2,560
    assert drawn_widths(sizes, kinds, 640_000) == pytest.approx([9_600, 2_560, 2_560, 9_600, 2_560, 612_289])
    # 100 small outputs and a huge one: 0.4 % each would take 40 % of the row, so the 101 outputs may take
    # at most 30 % of it together, 0.3 x 1,000,000 / 101 each; the huge one gets the rest
    many = drawn_widths([100] * 100 + [990_000], ["output"] * 101, 1_000_000)
    assert many[:100] == pytest.approx([300_000 / 101] * 100)
    assert many[100] == pytest.approx(1_000_000 - 100 * 300_000 / 101)
    assert drawn_widths([400, 600], ["output", "output"], 1_000) == pytest.approx([400, 600])  # nothing to widen
    # a row of 1,000 characters on a scale of 100,000 cannot give 5 blocks 300 each: only the request gets
    # its 1,500... which does not fit either, so the blocks keep their sizes
    assert drawn_widths([10, 200, 200, 290, 300], ["request"] + ["output"] * 4, 100_000) == pytest.approx(
        [10, 200, 200, 290, 300])
    # on a scale of 20,000: the request gets 300 (1.5 %); the four outputs (990 characters, each above its
    # minimum of 75 once shrunk) share the other 700 in proportion
    assert drawn_widths([10, 200, 200, 290, 300], ["request"] + ["output"] * 4, 20_000) == pytest.approx(
        [300, 200 * 700 / 990, 200 * 700 / 990, 290 * 700 / 990, 300 * 700 / 990])


def test_every_tour_text_is_filled_in(tour_run):
    numbers = tour_numbers(tour_run)
    fields = {name for step in STEPS for text in (step.lead, step.what, step.why)
              for _, name, _, _ in string.Formatter().parse(text) if name}
    assert fields <= set(numbers)
    assert numbers["input_messages"] == "123" and numbers["persisted_count"] == "1 output"
    assert [step.key for step in STEPS] == ["intro", "L3", "L1", "L2", "L4", "recap"]


@pytest.fixture
def session(monkeypatch):
    fake = {}
    monkeypatch.setattr(streamlit, "session_state", fake)
    return fake


def test_clicking_a_heatmap_cell_sets_the_sliders(session):
    result = sweep(SEED_DEMO, ("context_limit", (10_000, 20_000)), ("keep_recent", (1, 2, 3)))
    tuning.show_grid(result)
    session[tuning.HEATMAP_KEY] = {"selection": {"points": [{"x": "20,000", "y": "2", "customdata": [1, 1]}]}}
    tuning.apply_clicked_cell()
    assert session["CONTEXT_LIMIT"] == 20_000 and session["KEEP_RECENT"] == 2
    session[tuning.HEATMAP_KEY] = {"selection": {"points": []}}  # a click that selected nothing
    tuning.apply_clicked_cell()
    assert session["CONTEXT_LIMIT"] == 20_000 and session["KEEP_RECENT"] == 2
    assert tuning.current_cell(result, result.settings_at(1, 1)) == (1, 1)
    assert tuning.current_cell(result, result.settings_at(1, 1).replace(keep_recent=9)) is None


def test_a_cell_off_the_grid_changes_nothing(session):
    tuning.apply_cell(0, 0)  # no heatmap drawn yet
    assert "CONTEXT_LIMIT" not in session
    tuning.show_grid(sweep(SEED_DEMO, ("context_limit", (10_000,)), ("keep_recent", (1,))))
    tuning.apply_cell(5, 0)
    assert "KEEP_RECENT" not in session
