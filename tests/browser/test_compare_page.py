"""The Compare page in a real browser: every strategy name shown whole, a parameter changed in its
popover goes to the address bar, and that address opened again restores the comparison."""

import re

import pytest
from browser_helpers import expect_no_exception as no_exception
from browser_helpers import open_nav_page, screenshot, wait_idle
from playwright.sync_api import expect

from compaction.strategies import REGISTRY
from dashboard.ui.compare_form import default_choice
from dashboard.ui.loading import DEFAULT_SAMPLE, load_sample

# the strategies Compare starts from on the default sample (a generic format: no agent's preset)
DEFAULT_CHOICE = default_choice(load_sample(DEFAULT_SAMPLE).conversation.format)

pytestmark = pytest.mark.browser

TABLE = "[data-testid='stTable'] >> nth=0"  # tokens and cost; the second table is what the model loses


def fully_visible(locator) -> bool:
    """Whether the element's text fits its box (nothing cut off or hidden behind an ellipsis)."""
    return locator.evaluate("e => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1")


def test_names_whole_a_parameter_in_the_url_and_the_link_restoring_it(app_page):
    open_nav_page(app_page, "Compare", "Compare strategies")
    expect(app_page.locator("[data-testid='stPlotlyChart']")).to_be_visible()
    for name in DEFAULT_CHOICE:
        cell = app_page.locator(TABLE).locator("td", has_text=re.compile(f"^{re.escape(REGISTRY[name].label)}$"))
        expect(cell).to_have_count(1)
        assert fully_visible(cell), REGISTRY[name].label
    legend = app_page.locator("[data-testid='stPlotlyChart'] .legendtext")
    expect(legend).to_have_text(["no compaction", *(REGISTRY[name].label for name in DEFAULT_CHOICE)])
    app_page.locator(TABLE).scroll_into_view_if_needed()
    screenshot(app_page, "compare_default")

    row = app_page.locator(TABLE).locator("tr", has_text="API clear_tool_uses")
    did = app_page.locator("li", has_text="API clear_tool_uses: ")  # under "What each did"
    expect(row).to_contain_text("450,041")  # nothing cleared at the default trigger
    expect(did).to_contain_text("nothing: the session stayed under its thresholds")
    app_page.get_by_test_id("stPopoverButton").filter(has_text="API clear_tool_uses", visible=True).click()
    trigger = app_page.get_by_role("spinbutton", name="trigger (tokens)")
    trigger.fill("1000")
    trigger.press("Enter")
    wait_idle(app_page)
    expect(app_page).to_have_url(re.compile(r"anthropic-clear-tool-uses\.trigger=1000"))
    expect(row).not_to_contain_text("450,041")
    expect(did).to_contain_text("old tool results cleared in this request")
    no_exception(app_page)

    link = app_page.url
    fresh = app_page.context.new_page()
    fresh.goto(link)
    wait_idle(fresh)
    expect(fresh.locator("h1", has_text="Compare strategies")).to_be_visible()
    restored = fresh.locator("li", has_text="API clear_tool_uses: ")
    expect(restored).to_contain_text("old tool results cleared in this request")
    # no compaction, the reference, above the strategies (the demo records no usage: no row for its cost)
    expect(fresh.locator(TABLE).locator("tbody tr")).to_have_count(1 + len(DEFAULT_CHOICE))
    popover = fresh.get_by_test_id("stPopoverButton").filter(has_text="API clear_tool_uses", visible=True)
    expect(popover).to_contain_text("API clear_tool_uses · changed")  # the parameter set by you says so
    expect(fresh.locator(TABLE).locator("td", has_text="API clear_tool_uses (set by you: trigger 1,000)")
           ).to_have_count(1)
    popover.click()
    expect(fresh.get_by_role("spinbutton", name="trigger (tokens)")).to_have_value("1000")
    no_exception(fresh)
    screenshot(fresh, "compare_deep_link")
    fresh.close()
