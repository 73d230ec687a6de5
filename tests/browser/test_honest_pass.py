"""Issue 20, points 5, 6 and 8 in a real browser: a figure shown on more than one page says which kind it is
(one pass over the loaded conversation, or the loop's last call / the calls compared); Pipeline and What
changed say what they run on for a log that compacted itself, and the person can switch; the demo's
Pipeline headline sets its saving beside what the same settings cost over the whole session.

Every sentence and figure expected is the engine's own for the file the page shows."""

import re

import pytest
from browser_helpers import REPO_ROOT, load_sample, metric, open_nav_page, wait_idle
from browser_helpers import expect_no_exception as no_exception
from playwright.sync_api import expect

from compaction.importers import load_conversation
from compaction.layers.pipeline import run_pipeline
from compaction.model.history import prepare
from compaction.replay.loop import replay
from compaction.storage.outputs import OutputStore
from dashboard.render.comparison import saving_and_cost_sentence
from dashboard.render.log_view import AFTER_LAST, VIEW_TITLES, WITHOUT_SUMMARIES
from dashboard.render.units import percent

pytestmark = pytest.mark.browser

LONG_SAMPLE = REPO_ROOT / "sample_data" / "claude_code_long_session.jsonl"
SEED_DEMO = REPO_ROOT / "sample_data" / "seed_demo.json"


def test_each_figure_says_whether_it_is_one_pass_or_the_loop(app_page):
    load_sample(app_page, "A long Claude Code session")
    open_nav_page(app_page, "Pipeline", "Pipeline")
    for label in ("Sent, one pass", "Saved, one pass", "Artifacts, one pass"):
        expect(metric(app_page, label)).to_have_count(1)
    expect(metric(app_page, "Saved vs no compaction")).to_have_count(0)
    open_nav_page(app_page, "Replay", "Replay")
    for label in ("Tokens sent (compared)", "Tokens sent (all calls)", "Saved vs no compaction", "Artifacts, last call"):
        expect(metric(app_page, label)).to_have_count(1)
    expect(metric(app_page, "Saved, one pass")).to_have_count(0)
    no_exception(app_page)


def test_pipeline_and_what_changed_say_what_they_run_on_and_switch(app_page):
    load_sample(app_page, "A long Claude Code session")
    open_nav_page(app_page, "Pipeline", "Pipeline")
    switch = app_page.locator("[data-testid='stRadio']", has_text="This log compacted itself")
    expect(switch).to_be_visible()
    expect(switch.get_by_role("radio", name=VIEW_TITLES[WITHOUT_SUMMARIES])).to_be_checked()
    expect(app_page.get_by_text(re.compile(r"The layers run on the whole history with the agent's own 2 summaries "
                                           r"left out"))).to_be_visible()
    whole = metric(app_page, "Loaded").locator("[data-testid='stMetricValue']").inner_text()

    switch.get_by_text(VIEW_TITLES[AFTER_LAST]).click()
    wait_idle(app_page)
    expect(app_page.get_by_text(re.compile(r"The layers run on what the agent had after its last compaction: "
                                           r"messages [\d,]+ to the end"))).to_be_visible()
    expect(metric(app_page, "Loaded").locator("[data-testid='stMetricValue']")).not_to_have_text(whole)
    open_nav_page(app_page, "What changed", "What changed")
    expect(app_page.get_by_text(re.compile(r"after its last compaction: messages [\d,]+ to the end"))).to_be_visible()
    no_exception(app_page)


def test_the_demo_sets_its_saving_beside_its_cost(app_page, tmp_path):
    prepared = prepare(load_conversation(SEED_DEMO))
    one_pass = run_pipeline(prepared, store=OutputStore(tmp_path))
    saved = one_pass.saved / one_pass.stages[0].size
    expected = saving_and_cost_sentence(saved, replay(prepared, keep_histories=False))
    assert "cost more" in expected and "broke the prompt cache" in expected  # what the demo has to reconcile
    open_nav_page(app_page, "Pipeline", "Pipeline")
    expect(metric(app_page, "Saved, one pass").locator("[data-testid='stMetricValue']")).to_have_text(
        percent(saved, 1))
    expect(app_page.locator("[data-testid='stMarkdownContainer']", has_text=expected[:60])).to_have_text(expected)
    no_exception(app_page)
