"""Issue 29 in a real browser, the log's agent first: a Codex CLI rollout's Compare starts from the Codex
preset (listed by title, drawn in bold beside what the agent did), a window typed for it is marked as set
by you, and the next upload starts again from its own defaults."""

import gzip
import re

import pytest
from browser_helpers import REPO_ROOT, cut_cells, open_nav_page, screenshot, upload, wait_idle
from browser_helpers import expect_no_exception as no_exception
from playwright.sync_api import expect

from compaction.agents import agent_of
from compaction.importers import load_conversation
from compaction.strategies import REGISTRY
from dashboard.ui.compare_form import default_choice

pytestmark = pytest.mark.browser

CODEX = REPO_ROOT / "tests" / "importers" / "cases" / "valid" / "codex_compaction.jsonl"
CLAUDE = REPO_ROOT / "sample_data" / "claude_code_session.jsonl"
TABLE = "[data-testid='stTable'] >> nth=0"


def chips(page) -> list[str]:
    """The strategies the Compare page's multiselect shows as chosen."""
    return [tag.get_attribute("aria-label") for tag in page.locator("[data-testid='stMultiSelect'] [data-tag]").all()]


def open_compare(page) -> None:
    open_nav_page(page, "Compare", "Compare strategies")
    expect(page.locator("[data-testid='stPlotlyChart']").first).to_be_visible(timeout=120_000)
    wait_idle(page)


def test_a_codex_logs_compare_starts_from_the_codex_preset(app_page):
    page = app_page
    upload(page, CODEX)
    open_compare(page)
    codex = agent_of(load_conversation(CODEX).format).own_preset
    labels = [REGISTRY[name].label for name in default_choice(load_conversation(CODEX).format)]
    assert codex in default_choice(load_conversation(CODEX).format)
    assert chips(page) == labels  # by title, never a bare id
    assert "codex" not in chips(page) and "as-recorded" not in chips(page)
    cell = page.locator(TABLE).locator("td", has_text=re.compile(f"^{re.escape(REGISTRY[codex].label)}$"))
    expect(cell).to_have_count(1)
    # the agent's own line and what it did are drawn thick, the others thin
    widths = page.locator("[data-testid='stPlotlyChart'] .js-plotly-plot").first.evaluate(
        "plot => Object.fromEntries(plot.data.map(t => [t.name, t.line && t.line.width]))")
    assert widths[REGISTRY[codex].label] == 4 and widths[REGISTRY["pipeline"].label] < 2
    page.get_by_text("Every strategy, in one line each").click()
    expect(page.get_by_text(f"{REGISTRY['openhands-amortized'].label} ({REGISTRY['openhands-amortized'].title})")
           ).to_be_visible()
    screenshot(page, "compare_codex_preset")

    window = page.get_by_role("spinbutton", name="Model window (tokens)")
    window.fill("150000")
    window.press("Enter")
    wait_idle(page)
    expect(page.get_by_text("Model window: set by you for this file (the log's own: 272,000).")).to_be_visible()
    no_exception(page)

    open_nav_page(page, "Conversation", "Conversation")
    upload(page, CLAUDE)
    open_compare(page)
    expect(page.get_by_role("spinbutton", name="Model window (tokens)")).to_have_value("200000")
    expect(page.get_by_text("set by you", exact=False)).to_have_count(0)
    claude = agent_of(load_conversation(CLAUDE).format).own_preset
    assert chips(page) == [REGISTRY[name].label for name in default_choice(load_conversation(CLAUDE).format)]
    assert REGISTRY[claude].label in chips(page) and REGISTRY[codex].label not in chips(page)
    no_exception(page)


def test_a_binary_upload_is_told_it_is_not_a_text_log(app_page, tmp_path):
    page = app_page
    packed = tmp_path / "session.jsonl"  # a gzipped log under its log's name: no text at all
    packed.write_bytes(gzip.compress(CLAUDE.read_bytes()))
    page.get_by_role("tab", name="Upload a file").click()
    wait_idle(page)
    page.locator("[data-testid='stFileUploader'] input[type='file']").set_input_files(str(packed))
    wait_idle(page)
    expect(page.get_by_test_id("stAlert").filter(has_text="this is not a text log")).to_contain_text(
        "session.jsonl: this is not a text log: is it the right file? (it starts with the bytes 1f 8b 08 00, not text)")
    expect(page.get_by_text("not valid UTF-8")).to_have_count(0)
    no_exception(page)


def test_persisted_outputs_shows_what_l3_saved_along_the_replay(app_page, tmp_path):
    from tests.app.test_persisted_page import early_big_reads

    page = app_page
    log = tmp_path / "early_reads.jsonl"
    log.write_bytes(early_big_reads())
    upload(page, log)
    open_nav_page(page, "Persisted outputs", "Persisted outputs")
    expect(page.get_by_text("Along the replay of 3 calls, each message was the newest once")).to_be_visible()
    expect(page.get_by_text("Yes: the file's")).to_be_visible()
    cut, cells = cut_cells(page)
    assert cut == [] and cells >= 6  # the table of what L3 saved, each value whole
    screenshot(page, "persisted_along_the_replay")
    no_exception(page)
