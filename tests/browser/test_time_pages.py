"""The pages about a session over time, and the tour, in a real browser: each loads, a click on a Replay
point shows that call, the tour steps both ways by clicking, and a click on the Tune heatmap moves the
sidebar sliders."""

import pytest
from browser_helpers import expect_no_exception as no_exception
from browser_helpers import open_nav_page, open_tune, screenshot, settled_box, wait_idle
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TITLES = {"Replay": "Replay", "Tune": "Tune", "Compare": "Compare strategies", "Guided tour": "Guided tour"}


def open_page(page, link: str) -> None:
    open_nav_page(page, link, TITLES[link])


def test_each_time_page_loads(app_page):
    for link in TITLES:
        open_page(app_page, link)  # Replay, Tune and Compare replay the session before their first chart
        expect(app_page.locator("[data-testid='stPlotlyChart']").first).to_be_visible(timeout=120_000)
        no_exception(app_page)
        screenshot(app_page, f"page_{link.lower().replace(' ', '_')}")
    open_page(app_page, "Replay")
    expect(app_page.locator("[data-testid='stMetric']", has_text="Model calls")).to_contain_text("61")
    sent = app_page.locator("[data-testid='stPlotlyChart'] .scatterlayer .trace").nth(1).locator("path.point")
    sent.nth(29).click(force=True)  # the 30th call's point on the "sent" line
    wait_idle(app_page)
    expect(app_page.get_by_text("Call 30 answers")).to_be_visible()
    expect(app_page.get_by_role("spinbutton", name="Model call to inspect")).to_have_value("30")


def test_tour_steps_forward_and_back(app_page):
    open_page(app_page, "Guided tour")
    back, forward = app_page.get_by_role("button", name="Back"), app_page.get_by_role("button", name="Next")
    expect(back).to_be_disabled()
    forward.click()
    wait_idle(app_page)
    expect(app_page.locator("h2", has_text="Layer 3: put huge outputs on disk")).to_be_visible()
    expect(app_page.get_by_text("Step 2 of 6")).to_be_visible()
    expect(app_page.get_by_text("It costs no AI call")).to_be_visible()  # the rest of the step is drawn
    screenshot(app_page, "tour_step_2")
    back.click()
    wait_idle(app_page)
    expect(app_page.locator("h2", has_text="The problem: the context fills up")).to_be_visible()
    expect(back).to_be_disabled()
    no_exception(app_page)


def test_heatmap_click_sets_the_sidebar(app_page):
    open_tune(app_page)
    context_limit = app_page.get_by_role("spinbutton", name="CONTEXT_LIMIT: exact value")
    keep_recent = app_page.get_by_role("spinbutton", name="KEEP_RECENT: exact value")
    expect(context_limit).to_have_value("50000")
    plot_area = app_page.locator("[data-testid='stPlotlyChart'] .nsewdrag").first
    box = settled_box(plot_area)
    # the bottom-left cell: the first CONTEXT_LIMIT (10,000) and the first KEEP_RECENT (1) of 10 x 10
    plot_area.click(position={"x": box["width"] * 0.05, "y": box["height"] * 0.95})
    wait_idle(app_page)
    expect(context_limit).to_have_value("10000")
    expect(keep_recent).to_have_value("1")
    no_exception(app_page)
