"""In a real browser: a folder holding an evaluation output of three runs and a headless stream-json run
gives four rows, each run named by its instance and every text whole; a run opened with a click is the
session the Conversation page shows, and the stream run's Replay page says its cost is the run's totals."""

import shutil
from pathlib import Path

import pytest
from browser_helpers import expect_no_exception, open_nav_page, read_folder, screenshot, wait_idle
from playwright.sync_api import expect
from test_sessions_mixed_agents import ROW_HEIGHT, drawn_table

from dashboard.render.corpus_tables import FROM_TOTALS

pytestmark = pytest.mark.browser
CASES = Path(__file__).resolve().parents[1] / "importers" / "cases" / "valid"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("browser-runs")
    shutil.copy(CASES / "openhands_output_metrics.jsonl", root / "output.jsonl")
    shutil.copy(CASES / "gemini_stream_stats.jsonl", root / "headless-run.jsonl")
    return root


def test_each_run_is_a_row_and_opens_and_a_totals_only_log_says_so(app_page, folder):
    page = app_page
    read_folder(page, folder, 4)
    expect(page.get_by_text("4 sessions in 2 files")).to_be_visible()
    rows = drawn_table(page)  # every title and value fits its column
    assert [row["session"]["text"] for row in rows] == ["9c41e7d2-5b0a-4f3e-8d21-6a7f0b3c2e19", "textkit__textkit-17",
                                                        "dates__dates-4", "pkg__pkg-2"]
    assert rows[0]["recorded from"]["text"] == FROM_TOTALS
    screenshot(page, "sessions_runs")

    page.locator("[data-testid='stDataFrame']").first.click(position={"x": 16, "y": ROW_HEIGHT * 1.5})
    wait_idle(page)
    expect(page.get_by_text("Opened headless-run.jsonl")).to_be_visible()
    open_nav_page(page, "Replay", "Replay")
    expect(page.get_by_text("The log gives only the run's totals, not each call's usage")).to_be_visible()
    expect(page.locator("[data-testid='stMetric']", has_text="What it cost (log)")).to_contain_text("$0.06")
    screenshot(page, "replay_run_totals")

    open_nav_page(page, "Sessions", "Sessions")
    page.locator("[data-testid='stDataFrame']").first.click(position={"x": 16, "y": ROW_HEIGHT * 3.5})  # dates__dates-4
    wait_idle(page)
    expect(page.get_by_text("[dates__dates-4]: every other page now shows this session")).to_be_visible()
    open_nav_page(page, "Conversation", "Conversation")
    expect(page.locator("h2", has_text="Loaded: output.jsonl [dates__dates-4]")).to_be_visible()
    expect_no_exception(page)
