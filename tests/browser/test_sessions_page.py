"""The Sessions page in a real browser: a folder becomes rows (the corrupt file with its error), a click
on a row opens that session on the Conversation page, and the corpus sweep draws its heatmap."""

import pytest
from browser_helpers import expect_no_exception, open_nav_page, read_folder, screenshot, wait_idle
from playwright.sync_api import expect

from tests.corpus.conftest import CORRUPT_NAME, write_small_corpus

pytestmark = pytest.mark.browser
ROW_HEIGHT = 35  # st.dataframe's default row height, the header row included


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return write_small_corpus(tmp_path_factory.mktemp("browser-corpus"))


def test_folder_rows_open_a_session_and_sweep(app_page, corpus):
    page = app_page
    read_folder(page, corpus, 7)
    grid = page.locator("[data-testid='stDataFrame']").first
    expect(grid).to_contain_text(CORRUPT_NAME.split("/")[-1].removesuffix(".json"))
    expect(grid).to_contain_text("not valid JSON")
    screenshot(page, "sessions_rows")

    # rows are in path order: the corrupt file first, then exports/invoicer/session-00000.json
    assert grid.bounding_box()["height"] > ROW_HEIGHT * 8  # all seven rows are drawn
    grid.click(position={"x": 16, "y": ROW_HEIGHT * 2.5})  # the selection box of the second row
    wait_idle(page)
    expect(page.get_by_text("Opened exports/invoicer/session-00000.json")).to_be_visible()
    open_nav_page(page, "Conversation", "Conversation")
    expect(page.locator("h2", has_text="Loaded: exports/invoicer/session-00000.json")).to_be_visible()

    open_nav_page(page, "Sessions", "Sessions")
    sweep = page.get_by_role("button", name="Sweep 7 sessions × 9 pairs of settings")
    sweep.click()
    expect(page.get_by_text("Swept 7 sessions")).to_be_visible(timeout=180_000)
    wait_idle(page)
    heatmap = page.locator("[data-testid='stPlotlyChart']").first
    expect(heatmap).to_contain_text("p90")
    expect_no_exception(page)
    screenshot(page, "sessions_sweep")
