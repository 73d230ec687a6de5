"""Tune in a real browser draws its grid as the sweep fills it: on the 500-call sample the heatmap is on
screen with some of its cells before the last is done, then whole and clickable. (How fast is measured
by benchmarks/bench_tune_stream.py, not here.)"""

import pytest
from browser_helpers import CELLS_ON_SCREEN, expect_no_exception, open_nav_page, wait_idle
from playwright.sync_api import expect

from dashboard.render.heat_colors import DARK_TEXT, LIGHT_TEXT, text_colors

pytestmark = pytest.mark.browser



def test_the_heatmap_fills_as_cells_are_done(app_page):
    page = app_page
    page.get_by_role("tab", name="Bundled sample").click()
    wait_idle(page)
    page.locator("[data-testid='stSelectbox']").first.click()
    page.get_by_role("option", name="realistic", exact=False).click()
    wait_idle(page)
    page.get_by_role("button", name="Load this sample").click()
    wait_idle(page, 60_000)
    page.locator("[data-testid='stSidebarNav'] a", has_text="Tune").click()
    counts = []
    while not counts or counts[-1] < 100:
        page.wait_for_timeout(20)
        counts.append(page.evaluate(CELLS_ON_SCREEN))
        assert len(counts) < 6_000, f"the grid never filled: {sorted(set(counts))}"
    assert any(0 < count < 100 for count in counts), "the heatmap showed nothing before the whole grid"
    wait_idle(page, 60_000)
    open_nav_page(page, "Tune", "Tune")  # the same grid again: whole at once
    assert page.evaluate(CELLS_ON_SCREEN) == 100
    # the colour bar names its unit, and each cell's text is white or black, whichever reads on its cell
    drawn = page.locator("[data-testid='stPlotlyChart'] .js-plotly-plot").first.evaluate(
        "plot => ({bar: plot.data[0].colorbar.title.text, ticks: plot.data[0].colorbar.tickformat,"
        " colors: plot.data[1].textfont.color, texts: plot.data[1].text, z: plot.data[0].z.flat()})")
    assert drawn["bar"] == "US$" and drawn["ticks"] == "$,.2f"
    assert drawn["colors"] == text_colors(drawn["z"], "cost_usd") and len(drawn["texts"]) == 100
    assert set(drawn["colors"]) == {LIGHT_TEXT, DARK_TEXT}  # white on the dark cells, black on the light
    expect(page.get_by_role("button", name="Apply to the sidebar")).to_be_visible()
    expect_no_exception(page)
