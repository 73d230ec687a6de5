"""Issue 29's controls that fit the hand, in a real browser: the sidebar's CONTEXT_LIMIT slider steps through
round values on a log scale (a drag of 3 pixels moves it by at most 5 % of its value, a longer one by a
round step), an arrow key moves it one round value, and its box takes an exact value that the slider, the
address and the pages then follow."""

import re

import pytest
from browser_helpers import expect_no_exception as no_exception
from browser_helpers import open_nav_page, screenshot, wait_idle
from playwright.sync_api import expect

from dashboard.ui.sliders import MAIN_SLIDERS

pytestmark = pytest.mark.browser

CONTEXT_LIMIT = MAIN_SLIDERS[0]


def thumb_value(page) -> int:
    """The value the CONTEXT_LIMIT slider's thumb shows, as a number."""
    text = page.get_by_test_id("stSidebar").get_by_test_id("stSliderThumbValue").first.inner_text()
    return int(text.replace(",", ""))


def box(page):
    return page.get_by_role("spinbutton", name=f"{CONTEXT_LIMIT.name}: exact value")


def drag_thumb(page, pixels: float) -> None:
    """Press on the thumb's centre, move `pixels` to the right in small steps, let go."""
    thumb = page.get_by_role("slider", name=re.compile(r"CONTEXT_LIMIT \(characters\)")).locator("xpath=../..")
    where = thumb.bounding_box()
    x, y = where["x"] + where["width"] / 2, where["y"] + where["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + pixels, y, steps=3)
    page.mouse.up()
    wait_idle(page)


def test_a_small_drag_moves_context_limit_a_little_and_a_longer_one_a_round_step(app_page):
    page = app_page
    open_nav_page(page, "Pipeline", "Pipeline")
    assert thumb_value(page) == 50_000
    track = page.get_by_test_id("stSidebar").get_by_test_id("stSlider").first.bounding_box()
    assert track["width"] <= 260  # the sidebar's track: a few hundred pixels for every value
    drag_thumb(page, 3)
    after = thumb_value(page)
    assert abs(after - 50_000) <= 0.05 * 50_000, after
    expect(box(page)).to_have_value(str(after))
    drag_thumb(page, 16)  # two round values further at most, each 20 to 33 % more
    moved = thumb_value(page)
    assert after < moved <= 2 * after and moved in CONTEXT_LIMIT.options(moved), moved
    expect(box(page)).to_have_value(str(moved))
    expect(page).to_have_url(re.compile(f"CONTEXT_LIMIT={moved}"))
    no_exception(page)


def test_an_arrow_key_moves_one_round_value_and_the_box_takes_an_exact_one(app_page):
    page = app_page
    open_nav_page(page, "Pipeline", "Pipeline")
    slider = page.get_by_role("slider", name=re.compile(r"CONTEXT_LIMIT \(characters\)"))
    slider.focus()
    page.keyboard.press("ArrowRight")
    wait_idle(page)
    expect(box(page)).to_have_value("60000")  # the round value after 50,000, not 50,100
    box(page).fill("11771")
    box(page).press("Enter")
    wait_idle(page)
    expect(page.get_by_test_id("stSidebar").get_by_test_id("stSliderThumbValue").first).to_have_text("11,771")
    expect(page).to_have_url(re.compile(r"CONTEXT_LIMIT=11771"))
    expect(page.get_by_text("CONTEXT_LIMIT 11,771").first).to_be_visible()  # the pass ran at the typed value
    expect(page.get_by_test_id("stSidebar").get_by_text("Set by you; the tutorial's: 50,000.")).to_be_visible()
    screenshot(page, "controls_exact_value")
    no_exception(page)
