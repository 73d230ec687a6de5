"""Issue 39 in a real browser: the Compactions page shows a real-layout log's cards (a Claude Code log written
by hand in the layout of the public 2.1 logs, with the person's /compact and its focus text) with no value
cut off, and the guided tour runs on an uploaded log, with its own numbers and its agent's compactions."""

from pathlib import Path

import pytest
from browser_helpers import REPO_ROOT, cut_cells, open_nav_page, upload, wait_idle
from browser_helpers import expect_no_exception as no_exception
from playwright.sync_api import expect
from test_honest_text import cut_texts

pytestmark = pytest.mark.browser

CASE = REPO_ROOT / "tests" / "compactions" / "cases" / "claude_code_manual_compaction.jsonl"


def test_the_cards_of_an_uploaded_log_show_every_value_whole(app_page, generated_log):
    page = app_page
    for path, titles in ((CASE, ["Compaction 1, before call 5"]), (generated_log, None)):
        open_nav_page(page, "Conversation", "Conversation")
        upload(page, Path(path))
        open_nav_page(page, "Compactions", "Compactions")
        expect(page.locator("h3", has_text="Compaction 1, before call").first).to_be_visible(timeout=120_000)
        wait_idle(page)
        no_exception(page)
        shown = [text.strip() for text in page.locator("[data-testid='stMain'] h3").all_inner_texts() if text.startswith("Compaction ")]
        if titles is not None:
            assert shown == titles
        assert cut_texts(page) == []
        assert cut_cells(page)[0] == []


def test_the_hand_written_card_whole(app_page):
    page = app_page
    upload(page, CASE)
    open_nav_page(page, "Compactions", "Compactions")
    expect(page.locator("h3", has_text="Compaction 1, before call 5")).to_be_visible(timeout=60_000)
    wait_idle(page)
    text = page.locator("[data-testid='stMain']").inner_text()
    for value in ("manual (the person typed /compact), asking it to keep: keep the parser", "5,000", "5,010",
                  "1.2 s", "/w/a.py", "FAILED test_parser.py::test_split - assert 1 == 2",
                  "Summary: the person wants the parser fixed; b.py holds the tokenizer."):
        assert value in text, value
    assert cut_texts(page) == [] and cut_cells(page)[0] == []


def test_the_tour_runs_on_an_uploaded_log(app_page, generated_log):
    page = app_page
    upload(page, generated_log)
    open_nav_page(page, "Guided tour", "Guided tour")
    expect(page.get_by_role("heading", name="The problem: the context fills up")).to_be_visible()  # the demo first
    page.get_by_text("Your loaded session").click()
    wait_idle(page, 120_000)
    expect(page.get_by_role("heading", name="Your session: the context fills up")).to_be_visible(timeout=120_000)
    assert generated_log.name in page.locator("[data-testid='stMain']").inner_text()
    seen, texts = [], []
    while True:
        no_exception(page)
        seen.append(page.locator("h2").first.inner_text().strip())
        texts.append(page.locator("[data-testid='stMain']").inner_text())
        next_button = page.get_by_role("button", name="Next")
        if next_button.is_disabled():
            break
        next_button.click()
        wait_idle(page, 120_000)
        expect(page.locator("h2").first).not_to_have_text(seen[-1])
    assert seen == ["Your session: the context fills up", "What fills your context",
                    "What your agent did: its own compactions", "What the tutorial's four layers would do",
                    "Recap: your session"]
    assert "Your agent compacted its own conversation 1 time" in texts[2]  # the generated log compacts once
    assert "{" not in "".join(texts)  # every number filled in
