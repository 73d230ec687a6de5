"""Demo-ready pages in a real browser (issue 13): chart labels never printed over each other, the
Conversation tabs reopening where the conversation came from, and the tour's way to your own session."""

import pytest
from browser_helpers import REPO_ROOT, load_sample, open_nav_page, wait_idle
from browser_helpers import expect_no_exception as no_exception
from playwright.sync_api import expect

from dashboard.render.time_charts import BOUNDARY_NAME

pytestmark = pytest.mark.browser

# Boxes of the words written on a chart: values on bars, notes (annotations) and axis labels.
TEXT_BOXES = """chart => Array.from(chart.querySelectorAll('text.bartext, text.annotation-text, g.xtick text'))
    .filter(text => text.textContent.trim())
    .map(text => { const box = text.getBoundingClientRect();
                   return {text: text.textContent, left: box.left, right: box.right, top: box.top,
                           bottom: box.bottom}; })"""


def overlapping(boxes: list[dict]) -> list[tuple[str, str]]:
    """Pairs of texts whose boxes intersect (touching edges do not count)."""
    return [(a["text"], b["text"]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]]


def test_waterfall_labels_are_never_printed_over_each_other(app_page):
    open_nav_page(app_page, "Pipeline", "Pipeline")
    chart = app_page.locator("[data-testid='stPlotlyChart']").first
    expect(chart.locator(".annotation-text")).to_contain_text("CONTEXT_LIMIT")
    boxes = chart.evaluate(TEXT_BOXES)
    shown = {box["text"] for box in boxes}
    assert {"Input697.4 K", "Sent to the model10.5 K"} <= shown  # the input's and the sent size, under their bars
    line = chart.locator(".shapelayer path").first.bounding_box()  # the CONTEXT_LIMIT line, its only shape
    assert not [box["text"] for box in boxes if box["top"] < line["y"] + line["height"] and line["y"] < box["bottom"]
                and box["left"] < line["x"] + line["width"]]  # no label where the line runs
    assert overlapping(boxes) == []
    for name in ("Input697.4 K", "Sent to the model10.5 K"):  # horizontal labels, not tilted and cut
        label = next(box for box in boxes if box["text"] == name)
        assert label["bottom"] - label["top"] < 45  # two lines of text
    no_exception(app_page)


def test_replay_marks_claude_codes_compactions_without_labels_on_the_lanes(app_page):
    load_sample(app_page, "Claude Code session log")
    expect(app_page.get_by_text("Loaded: claude_code_session.jsonl")).to_be_visible()
    open_nav_page(app_page, "Replay", "Replay")
    chart = app_page.locator("[data-testid='stPlotlyChart']").first
    expect(chart.locator(".legendtext", has_text=BOUNDARY_NAME)).to_have_count(1)
    boxes = chart.evaluate(TEXT_BOXES)
    assert overlapping(boxes) == []
    assert not [box for box in boxes if "compacted here" in box["text"]]  # named in the legend only
    lanes = chart.locator("rect.nsewdrag[data-subplot='x2y2']").bounding_box()
    inside = [box["text"] for box in boxes if box["top"] >= lanes["y"] and box["bottom"] <= lanes["y"] + lanes["height"]
              and box["left"] >= lanes["x"] and box["right"] <= lanes["x"] + lanes["width"]]
    assert inside == []
    no_exception(app_page)


def test_back_on_the_conversation_page_after_an_upload_the_upload_tab_is_open(app_page):
    app_page.get_by_role("tab", name="Upload a file").click()
    wait_idle(app_page)
    app_page.locator("[data-testid='stFileUploader'] input[type='file']").set_input_files(
        str(REPO_ROOT / "sample_data" / "openai_chat.json"))
    wait_idle(app_page)
    expect(app_page.get_by_text("Loaded: openai_chat.json")).to_be_visible(timeout=30_000)
    open_nav_page(app_page, "Pipeline", "Pipeline")
    open_nav_page(app_page, "Conversation", "Conversation")
    expect(app_page.get_by_role("tab", name="Upload a file")).to_have_attribute("aria-selected", "true")
    expect(app_page.get_by_role("tab", name="Bundled sample")).to_have_attribute("aria-selected", "false")
    expect(app_page.get_by_text("uploaded earlier")).to_be_visible()
    no_exception(app_page)


def test_the_tour_ends_on_your_own_session(app_page):
    open_nav_page(app_page, "Guided tour", "Guided tour")
    forward, main = app_page.get_by_role("button", name="Next"), app_page.get_by_test_id("stMainBlockContainer")
    for _ in range(5):
        expect(main.get_by_text("The unit models read and bill by")).to_be_visible()  # the glossary is open
        forward.click()
        wait_idle(app_page)
    expect(app_page.locator("h2", has_text="Recap")).to_be_visible()
    # the recap's chart replaces the last step's: wait until the page holds it alone
    app_page.wait_for_function("""() => {
        const charts = document.querySelectorAll("[data-testid='stPlotlyChart']");
        const ticks = [...document.querySelectorAll("[data-testid='stPlotlyChart'] g.ytick text")];
        return charts.length === 1 && ticks.length > 0 && ticks.every(t => t.textContent.endsWith(" %"));
    }""", timeout=30_000)
    chart = app_page.locator("[data-testid='stPlotlyChart'] .js-plotly-plot")
    assert chart.evaluate("plot => plot._fullLayout.yaxis.type") == "linear"
    ticks = [float(text.removesuffix(" %")) for text in
             app_page.locator("[data-testid='stPlotlyChart'] g.ytick text").all_text_contents()]
    assert len({round(b - a, 6) for a, b in zip(ticks, ticks[1:], strict=False)}) == 1  # evenly spaced: linear
    # each bar is as tall as the share its label states ("−635.6 K characters (98.4 %)")
    bars = chart.evaluate("""plot => [...plot.querySelectorAll('.bars .point')].map(point => ({
        height: point.querySelector('path').getBoundingClientRect().height,
        label: point.querySelector('text').textContent}))""")
    shares = [float(bar["label"].rsplit("(", 1)[1].removesuffix(" %)")) for bar in bars]
    assert len(bars) == 4 and max(shares) > 50
    pixels_per_point = max(bar["height"] for bar in bars) / max(shares)
    assert all(abs(bar["height"] - share * pixels_per_point) <= 2 for bar, share in zip(bars, shares, strict=True))
    app_page.get_by_role("button", name="Try it on your own session").click()
    wait_idle(app_page)
    expect(app_page.locator("h1", has_text="Conversation")).to_be_visible()
    expect(app_page.get_by_role("tab", name="Upload a file")).to_have_attribute("aria-selected", "true")
    no_exception(app_page)
