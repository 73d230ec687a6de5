"""What fills the context, in a real browser: on a log that compacted itself, the Conversation page's bars,
the Replay page's stacked area and the bar of the call picked, and the Live page's bar of now, each drawn
with readable labels: every value written inside a segment fits that segment, every legend entry, total
and axis label lies whole inside the chart and no two legend entries overlap."""

from pathlib import Path

import pytest
from browser_helpers import (
    expect_no_exception,
    follow_live,
    load_sample,
    open_nav_page,
    screenshot,
    wait_idle,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LIVE_CASE = Path(__file__).resolve().parents[1] / "live" / "cases" / "claude_code_growing.jsonl"
CHART = "[data-testid='stPlotlyChart']"
# Texts of a plotly chart that must be whole: values inside bar segments (each within its segment), and
# legend entries, annotations (totals, panel titles, the bracket) and tick labels (each within the chart).
READABLE = """chart => {
    const svg = chart.querySelector('svg.main-svg').getBoundingClientRect();
    const inside = (r, b) => r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1
                             && r.bottom <= b.bottom + 1;
    const drawn = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 ? r : null; };
    const problems = [];
    let values = 0;
    for (const point of chart.querySelectorAll('.barlayer .point')) {
        const text = point.querySelector('text'), path = point.querySelector('path');
        const box = text && text.textContent.trim() && drawn(text);
        if (!box) continue;
        values++;
        if (!inside(box, path.getBoundingClientRect())) problems.push(`value '${text.textContent}' overflows its segment`);
    }
    const labels = [...chart.querySelectorAll('.legendtext, .annotation-text, .xtick text, .ytick text, .g-xtitle text')];
    for (const label of labels) {
        const box = drawn(label);
        if (box && !inside(box, svg)) problems.push(`'${label.textContent}' is cut by the chart's edge`);
    }
    const legend = [...chart.querySelectorAll('.legendtext')].map(drawn).filter(Boolean);
    legend.forEach((a, i) => legend.slice(i + 1).forEach(b => {
        if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
            problems.push('two legend entries overlap');
    }));
    return {problems, values, legend: legend.length,
            annotations: [...chart.querySelectorAll('.annotation-text')].map(e => e.textContent)};
}"""


def readable(page, has_text: str) -> dict:
    chart = page.locator(CHART, has_text=has_text).first
    expect(chart).to_be_visible(timeout=120_000)
    chart.scroll_into_view_if_needed()
    page.wait_for_timeout(500)  # drawn "stretch": resized once after it is first drawn
    found = chart.evaluate(READABLE)
    assert found["problems"] == [], has_text
    assert found["legend"] >= 4, has_text
    return found


def test_the_composition_charts_have_readable_labels(app_page, tmp_path):
    page = app_page
    load_sample(page, "A long Claude Code session")
    conversation = readable(page, "the same call, never compacted")
    assert conversation["values"] >= 3  # the largest segments carry their figure
    assert sum(text.endswith(" tokens") for text in conversation["annotations"]) == 2  # each bar's total
    screenshot(page, "composition_conversation")

    open_nav_page(page, "Replay", "Replay")
    expect(page.locator(CHART).nth(2)).to_be_visible(timeout=120_000)
    wait_idle(page, 120_000)
    area = readable(page, "sent with tutorial pipeline")
    assert "without compaction" in area["annotations"]
    picked = readable(page, "tokens the call sends")
    assert picked["values"] >= 2
    expect_no_exception(page)
    screenshot(page, "composition_replay")

    log = tmp_path / "5f0e2c1a-7b3d-4e8f-9a21-3c4d5e6f7a80.jsonl"
    log.write_bytes(LIVE_CASE.read_bytes())
    follow_live(page, log)
    live = readable(page, "after the next compaction")
    assert any(text.startswith("the next compaction takes: ") for text in live["annotations"])
    expect_no_exception(page)
    screenshot(page, "composition_live")
