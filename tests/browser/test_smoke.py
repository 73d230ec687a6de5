"""The app's root page loads in a real browser and renders without an exception."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_root_page_renders_without_exception(app_page):
    exceptions = app_page.locator("[data-testid='stException']")
    assert exceptions.count() == 0, f"the app raised:\n{exceptions.first.inner_text()}"
    expect(app_page.locator("[data-testid='stApp']")).to_be_visible()
    assert app_page.title().strip(), "the page has no title"
    assert app_page.locator("[data-testid='stMain']").inner_text().strip(), "the main area is empty"
