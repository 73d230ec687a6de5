"""The Sessions page in a real browser on the hand-written folder mixing Claude Code (with a subagent under
2.1's subagents/ folder), Codex CLI and Gemini CLI sessions: every row drawn with its format, calls and
recorded cost, each subagent under its session, every text whole, and a subagent opened with a click."""

import re

import pytest
from browser_helpers import (
    GRID,
    GRID_PADDING,
    OUTPUT_DIR,
    expect_no_exception,
    open_nav_page,
    read_folder,
    screenshot,
    wait_idle,
)
from playwright.sync_api import expect

from compaction.corpus import analyse, discover
from dashboard.render.corpus_tables import COLUMN_KINDS, sessions_frame
from dashboard.render.grid_widths import fitting_widths
from tests.corpus.test_subagents import MIXED, SHOP

pytestmark = pytest.mark.browser
ROW_HEIGHT = 35  # st.dataframe's default row height, the header row included

def drawn_columns(page) -> list[dict]:
    return page.locator("[data-testid='stDataFrame'] .dvn-scroller").first.evaluate(GRID)["columns"]


def drawn_table(page) -> list[dict[str, dict]]:
    grid = page.locator("[data-testid='stDataFrame'] .dvn-scroller").first.evaluate(GRID)
    titles = [column["title"] for column in grid["columns"]]
    for column, cells in zip(grid["columns"], zip(*grid["rows"], strict=True), strict=True):
        if not column["title"]:
            continue  # the selection boxes
        assert column["titleWidth"] + 2 * GRID_PADDING <= column["width"], column
        for cell in cells:
            assert cell["width"] + 2 * GRID_PADDING <= column["width"], (column["title"], cell["text"], column["width"])
    return [dict(zip(titles, row, strict=True)) for row in grid["rows"]]


def test_mixed_agents_rows_whole_with_format_calls_and_recorded_cost(app_page):
    page = app_page
    read_folder(page, MIXED, 8)
    screenshot(page, "sessions_mixed_agents")

    # the table starts narrow, with who each session is and what it cost; the rest is one tick away
    shown = [column["title"] for column in drawn_columns(page)]
    assert "path" not in shown and {"session", "format", "recorded cost (US$)", "subagent of"} <= set(shown)
    every_column = sum(fitting_widths(sessions_frame(analyse(discover(MIXED)).rows), COLUMN_KINDS).values())
    assert sum(column["width"] for column in drawn_columns(page)) < every_column / 2  # 2,248 px of 6,000 or so
    page.get_by_role("button", name=re.compile(r"^Columns")).click()
    page.get_by_test_id("stCheckbox").filter(has_text=re.compile("^path$")).click()
    wait_idle(page)
    page.keyboard.press("Escape")
    drawn = drawn_table(page)  # every title and every value fits its column
    page.locator("[data-testid='stDataFrame']").first.screenshot(path=str(OUTPUT_DIR / "sessions_mixed_agents_table.png"))
    rows = analyse(discover(MIXED)).rows
    assert len(drawn) == len(rows) == 8
    for row, cells in zip(rows, drawn, strict=True):
        text = {title: cell["text"] for title, cell in cells.items()}
        mark = "↳ " if row["kind"] == "subagent" else ""
        assert text["session"] == mark + row["session"] and text["path"] == row["path"]
        assert text["format"] == row["format_title"]
        assert text["model calls"] == f"{row['model_calls']:,}"
        assert text["recorded cost (US$)"] == f"${row['recorded_cost_usd']:.4f}"
        assert text["cost with these settings (US$)"] == f"${row['cost_usd']:.4f}"
        assert text["subagent of"] == (row["subagent_of"] or "") + (
            " (not in this folder)" if row["subagent_of"] and not row["parent_path"] else "")
    assert [row["format_title"] for row in rows] == ["Claude Code"] * 5 + ["Codex CLI"] + ["Gemini CLI"] * 2
    expect(page.locator("[data-testid='stMetric']", has_text="Subagents")).to_contain_text("4")

    # the fifth row is the 2.1 subagent under its session: click its selection box to open it
    position = next(i for i, row in enumerate(rows) if row["subagent_of"] == SHOP)
    grid = page.locator("[data-testid='stDataFrame']").first
    grid.click(position={"x": 16, "y": ROW_HEIGHT * (position + 1.5)})
    wait_idle(page)
    expect(page.get_by_text(f"a subagent of session {SHOP}")).to_be_visible()
    open_nav_page(page, "Conversation", "Conversation")
    expect(page.locator("h2", has_text="subagents/agent-a3f9c1d2e4b5a6978.jsonl")).to_be_visible()
    expect_no_exception(page)
