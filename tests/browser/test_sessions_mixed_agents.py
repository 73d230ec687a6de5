"""The Sessions page in a real browser on the hand-written folder mixing Claude Code (with a subagent under
2.1's subagents/ folder), Codex CLI and Gemini CLI sessions: every row drawn with its format, calls and
recorded cost, each subagent under its session, every text whole, and a subagent opened with a click."""

import pytest
from browser_helpers import OUTPUT_DIR, expect_no_exception, open_nav_page, read_folder, screenshot, wait_idle
from playwright.sync_api import expect

from compaction.corpus import analyse, discover
from tests.corpus.test_subagents import MIXED, SHOP

pytestmark = pytest.mark.browser
ROW_HEIGHT = 35  # st.dataframe's default row height, the header row included

# The grid draws on a canvas: what it draws is read from the data grid's own props (its columns with their
# widths, and each cell's text as drawn), and each text measured in the grid's font.
GRID = r"""
element => {
  const key = Object.keys(element).find(name => name.startsWith('__reactFiber$'));
  for (let fiber = element[key]; fiber; fiber = fiber.return) {
    const props = fiber.memoizedProps;
    if (!props || !Array.isArray(props.columns) || typeof props.getCellContent !== 'function') continue;
    const style = getComputedStyle(element);
    const canvas = document.createElement('canvas').getContext('2d');
    canvas.font = style.getPropertyValue('--gdg-base-font-style') + ' ' + style.getPropertyValue('--gdg-font-family');
    const headerFont = style.getPropertyValue('--gdg-header-font-style') + ' ' + style.getPropertyValue('--gdg-font-family');
    const columns = props.columns.map(column => ({title: column.title, width: column.width}));
    const rows = [];
    for (let row = 0; row < props.rows; row++) {
      rows.push(props.columns.map((_, column) => {
        const cell = props.getCellContent([column, row]);
        const text = String(cell.displayData ?? (cell.data && cell.data.displayDate) ?? cell.copyData ?? '');
        return {text, width: canvas.measureText(text).width};
      }));
    }
    canvas.font = headerFont;
    columns.forEach(column => { column.titleWidth = canvas.measureText(column.title).width; });
    return {columns, rows};
  }
  return null;
}
"""
PADDING = 8  # the grid's cell padding, each side


def drawn_table(page) -> list[dict[str, dict]]:
    grid = page.locator("[data-testid='stDataFrame'] .dvn-scroller").first.evaluate(GRID)
    titles = [column["title"] for column in grid["columns"]]
    for column, cells in zip(grid["columns"], zip(*grid["rows"], strict=True), strict=True):
        if not column["title"]:
            continue  # the selection boxes
        assert column["titleWidth"] + 2 * PADDING <= column["width"], column
        for cell in cells:
            assert cell["width"] + 2 * PADDING <= column["width"], (column["title"], cell["text"], column["width"])
    return [dict(zip(titles, row, strict=True)) for row in grid["rows"]]


def test_mixed_agents_rows_whole_with_format_calls_and_recorded_cost(app_page):
    page = app_page
    read_folder(page, MIXED, 8)
    screenshot(page, "sessions_mixed_agents")

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
