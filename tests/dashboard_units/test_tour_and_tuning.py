"""The tour's blocks, numbers and texts, and the Tune page's link to the sidebar sliders (its callbacks
called directly, on a plain dict standing in for st.session_state)."""

import string

import pytest
import streamlit

from compaction import prepare, run_pipeline
from compaction.generate import generate
from compaction.sweep import sweep
from dashboard import tuning
from dashboard.tour import KINDS, TOUR_SETTINGS, blocks_figure, message_kind, tour_numbers
from dashboard.tour_text import STEPS

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


def test_blocks_are_as_wide_as_the_messages(tour_run):
    before, after = tour_run.stages[0].history, tour_run.stages[1].history
    figure = blocks_figure([("Before", before), ("After", after)], limit=8_000)
    for label, history in (("Before", before), ("After", after)):
        segments = sorted((base, width) for trace in figure.data
                          for base, width, row in zip(trace.base, trace.x, trace.y, strict=True) if row == label)
        assert [width for _, width in segments] == history.sizes
        assert segments[-1][0] + segments[-1][1] == sum(history.sizes)  # end to end, no gap or overlap
    assert {trace.name for trace in figure.data} <= {text for text, _ in KINDS.values()}
    assert figure.layout.shapes[0].x0 == 8_000


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
