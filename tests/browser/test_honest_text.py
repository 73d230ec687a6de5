"""Issue 20 in a real browser, the text itself: no page's value is cut (the rendered text fits its box), a
shared link made with an uploaded file says the file is not in it and offers the report, and a `.traj`
file is accepted by the upload."""

from pathlib import Path

import pytest
from browser_helpers import REPO_ROOT, cut_cells, load_sample, metric, open_nav_page, upload, wait_idle
from browser_helpers import expect_no_exception as no_exception
from playwright.sync_api import expect

from compaction.importers import load_conversation
from dashboard.ui.loading import format_title

pytestmark = pytest.mark.browser

PAGES = {"Conversation": "Conversation", "Pipeline": "Pipeline", "What changed": "What changed",
         "Persisted outputs": "Persisted outputs", "Compactions": "Compactions", "Replay": "Replay", "Tune": "Tune",
         "Compare": "Compare strategies", "Sessions": "Sessions"}
LONG_SAMPLE = REPO_ROOT / "sample_data" / "claude_code_long_session.jsonl"
TRAJ = REPO_ROOT / "tests" / "importers" / "cases" / "valid" / "swe_agent_tool_call_ids.traj"
# Where values are written: metrics (label, value, delta), table cells, the text a select or multiselect
# shows (an input's value), radio options. Text is cut when an element's content is wider than its box (an ellipsis hides
# the rest: scrollWidth > clientWidth; inline elements have no box of their own), or when the text itself
# ends in one. Slider thumbs are left out: their value is drawn over the thumb, wider than it on purpose.
CUT = """main => [...main.querySelectorAll(`[data-testid='stMetric'] *, [data-testid='stTable'] td,
        [data-testid='stTable'] th, [data-testid='stSelectbox'] *, [data-testid='stMultiSelect'] *,
        [data-testid='stRadio'] *`)]
    .map(e => ({element: e, text: (e.matches('input') ? e.value : e.textContent).trim()}))
    .filter(({element, text}) => text && getComputedStyle(element).display !== 'inline')
    .filter(({element, text}) => element.scrollWidth > element.clientWidth + 1 || text.endsWith('…'))
    .map(({element, text}) => `${element.closest('[data-testid]').dataset.testid}: '${text.slice(0, 80)}' `
                              + `(${element.scrollWidth} px wide in ${element.clientWidth} px)`)"""
VALUES = "[data-testid='stMetric'], [data-testid='stTable'] td, [data-testid='stSelectbox']"


def cut_texts(page) -> list[str]:
    return page.locator("[data-testid='stApp']").evaluate(CUT)


@pytest.mark.parametrize("log", ("long sample", "generated log"))
def test_no_page_cuts_a_value(app_page, generated_log, log):
    page = app_page
    if log == "long sample":
        path = LONG_SAMPLE
        load_sample(page, "A long Claude Code session")
    else:
        path = generated_log
        upload(page, generated_log)
    checked = grid_cells = 0
    for link, title in PAGES.items():
        open_nav_page(page, link, title)
        if link in ("Replay", "Compare", "Tune"):  # their values come after the replays and the sweep
            expect(page.locator("[data-testid='stPlotlyChart']").first).to_be_visible(timeout=120_000)
            wait_idle(page)
        no_exception(page)
        assert cut_texts(page) == [], link
        cut, cells = cut_cells(page)
        assert cut == [], link  # and no table's cell or title
        checked += page.locator(VALUES).count()
        grid_cells += cells
    assert checked > 120  # metrics, cells and boxes were there to check (Compare starts from five strategies)
    assert grid_cells > 500  # the message tables of Conversation, What changed and Replay
    # the measure boxes of Tune name their choice whole, and its slider values have their separators
    open_nav_page(page, "Tune", "Tune")
    expect(page.get_by_role("combobox", name="Measure")).to_have_value("Cost with prompt caching (US$)")
    thumb = page.get_by_test_id("stSidebar").get_by_test_id("stSliderThumbValue").first
    expect(thumb).to_have_text("50,000")
    open_nav_page(page, "Replay", "Replay")  # and a value is the figure whole, not shortened to fit
    calls = sum(1 for message in load_conversation(path).messages if message["role"] == "assistant")
    expect(metric(page, "Model calls").get_by_test_id("stMetricValue")).to_have_text(f"{calls:,}")

def test_a_link_made_with_an_upload_says_the_file_is_not_in_it_and_offers_the_report(app_page, generated_log,
                                                                                       tmp_path):
    page = app_page
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar.get_by_text("copy it to share this view of the default sample")).to_be_visible()
    upload(page, generated_log)
    open_nav_page(page, "Replay", "Replay")
    warning = sidebar.get_by_test_id("stAlert")
    expect(warning).to_contain_text("The address bar keeps these settings, not your file: whoever opens the link "
                                    f"sees the default sample, not {generated_log.name}. Send the report instead.")
    with page.expect_download(timeout=120_000) as download:
        sidebar.get_by_role("button", name="Download the report").click()
    assert download.value.suggested_filename == f"{generated_log.stem}_report.html"
    report = Path(download.value.path()).read_text(encoding="utf-8")
    assert f"<title>Compaction report: {generated_log.name}</title>" in report
    assert report.count("Plotly.newPlot(") == 2  # the file's own charts: the waterfall and the replay

    shared = page.context.new_page()  # what the link gives whoever opens it: what the warning says
    shared.goto(page.url)
    wait_idle(shared)
    expect(shared.locator("h1", has_text="Replay")).to_be_visible()
    open_nav_page(shared, "Conversation", "Conversation")
    expect(shared.get_by_text("Loaded: seed_demo.json")).to_be_visible()
    shared.close()

    open_nav_page(page, "Conversation", "Conversation")
    load_sample(page, "A long Claude Code session")  # a bundled sample: the link says how to get it back
    expect(sidebar.get_by_text("not the conversation: whoever opens it sees the default sample until they load "
                               "the same sample")).to_be_visible()
    no_exception(page)


def test_a_traj_file_is_accepted(app_page):
    page = app_page
    page.get_by_role("tab", name="Upload a file").click()
    wait_idle(page)
    # the picker offers every file (no accept list): a log is known by its content, whatever its name
    assert not page.locator("[data-testid='stFileUploader'] input[type='file']").get_attribute("accept")
    upload(page, TRAJ)
    expect(page.get_by_text("files are not allowed")).to_have_count(0)
    expect(metric(page, "Format").get_by_test_id("stMetricValue")).to_have_text(
        format_title(load_conversation(TRAJ).format))  # SWE-agent
    expect(metric(page, "Messages").get_by_test_id("stMetricValue")).to_have_text(
        f"{len(load_conversation(TRAJ).messages):,}")
    open_nav_page(page, "Replay", "Replay")
    expect(page.locator("[data-testid='stPlotlyChart']").first).to_be_visible()
    no_exception(page)
