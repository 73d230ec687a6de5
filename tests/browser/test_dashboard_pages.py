"""The dashboard in a real browser: navigation, a slider moved with the keyboard, an upload, a shared link."""

import re

import pytest
from browser_helpers import REPO_ROOT, open_nav_page, screenshot, start_streamlit, wait_idle
from browser_helpers import expect_no_exception as no_exception
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PAGES = {"Conversation": "Conversation", "Pipeline": "Pipeline", "What changed": "What changed",
         "Persisted outputs": "Persisted outputs"}
L4_TICK = "[data-testid='stPlotlyChart'] .xtick"


def open_page(page, link: str) -> None:
    open_nav_page(page, link, PAGES[link])


def expect_l4_fired(page) -> None:
    metric = page.locator("[data-testid='stMetric']", has_text="L4 summary")
    expect(metric.locator("[data-testid='stMetricValue']")).to_have_text("fired")
    expect(metric.locator("[data-testid='stMetricDelta']")).to_have_text("by the offline summariser")


def test_navigation_reaches_every_page(app_page):
    expect(app_page.locator("h1", has_text="Conversation")).to_be_visible()
    expect(app_page.get_by_text("Loaded: seed_demo.json")).to_be_visible()
    for link in ("Pipeline", "What changed", "Persisted outputs", "Conversation"):
        open_page(app_page, link)
        no_exception(app_page)
        screenshot(app_page, f"page_{link.lower().replace(' ', '_')}")
    open_page(app_page, "Pipeline")
    expect(app_page.locator("[data-testid='stPlotlyChart']")).to_have_count(2)
    expect(app_page).to_have_url(re.compile(r"/pipeline"))


def test_slider_moved_with_the_keyboard_changes_the_chart(app_page):
    open_page(app_page, "Pipeline")
    l4_tick = app_page.locator(L4_TICK).nth(4)
    expect(l4_tick).to_contain_text("not triggered")
    slider = app_page.get_by_role("slider", name="CONTEXT_LIMIT (characters)")
    slider.focus()
    app_page.keyboard.press("Home")  # the slider's smallest CONTEXT_LIMIT: 2,000 characters
    wait_idle(app_page)
    expect(l4_tick).not_to_contain_text("not triggered")
    expect(l4_tick).to_contain_text("−")
    expect_l4_fired(app_page)
    expect(app_page).to_have_url(re.compile(r"CONTEXT_LIMIT=2000"))
    no_exception(app_page)


def test_uploaded_file_is_analysed(app_page):
    app_page.get_by_role("tab", name="Upload a file").click()
    app_page.locator("[data-testid='stFileUploader'] input[type='file']").set_input_files(
        str(REPO_ROOT / "sample_data" / "openai_chat.json"))
    wait_idle(app_page)
    expect(app_page.get_by_text("Loaded: openai_chat.json")).to_be_visible(timeout=30_000)
    expect(app_page.locator("[data-testid='stMetric']", has_text="Format")).to_contain_text("OpenAI chat")
    open_page(app_page, "Pipeline")
    expect(app_page.get_by_text("openai_chat.json through the four layers")).to_be_visible()
    no_exception(app_page)


def test_shared_link_opens_the_same_page_and_settings_on_a_fresh_server(page):
    server = start_streamlit()
    try:
        page.goto(f"{server.url}/pipeline?CONTEXT_LIMIT=5000&KEEP_RECENT=1")
        wait_idle(page)
        expect(page.locator("h1", has_text="Pipeline")).to_be_visible()
        expect(page.get_by_role("spinbutton", name="CONTEXT_LIMIT: exact value")).to_have_value("5000")
        expect(page.get_by_role("spinbutton", name="KEEP_RECENT: exact value")).to_have_value("1")
        expect(page.get_by_test_id("stSidebar").get_by_test_id("stSliderThumbValue").first).to_have_text("5,000")
        expect_l4_fired(page)
        expect(page.get_by_text("Page not found")).to_have_count(0)
        expect(page.locator("[data-testid='stSidebarNav']")).to_contain_text("Guided tour")  # the app's navigation
        no_exception(page)
    finally:
        server.stop()
