"""The HTML report opens offline: in chromium with every request but the file itself refused, its charts
draw and nothing is logged as an error. Once as `python -m compaction report` writes it, once as the
Pipeline page's "Download report" button gives it."""

import subprocess
import sys
from pathlib import Path

import pytest
from browser_helpers import REPO_ROOT, open_nav_page
from playwright.sync_api import expect

from dashboard.render.time_charts import BOUNDARY_NAME

pytestmark = pytest.mark.browser

SAMPLES = REPO_ROOT / "sample_data"


def open_offline(context, path: Path) -> tuple[list[str], list[str]]:
    """Open `path` with the network cut: (every URL the page asked for, every console error or page error)."""
    requests, problems = [], []
    page = context.new_page()
    page.on("request", lambda request: requests.append(request.url))
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file://") else route.abort())
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    return requests, problems


def expect_charts_drawn(context, path: Path, charts: int) -> None:
    requests, problems = open_offline(context, path)
    page = context.pages[-1]
    for number in range(charts):  # plotly draws each chart into an svg of class main-svg
        expect(page.locator(".js-plotly-plot").nth(number).locator(".main-svg").first).to_be_attached()
    expect(page.locator(".js-plotly-plot")).to_have_count(charts)
    assert requests == [path.as_uri()]  # nothing else was even asked for
    assert problems == []


def test_the_cli_report_opens_offline(chromium_browser, tmp_path):
    report = tmp_path / "report.html"
    done = subprocess.run([sys.executable, "-m", "compaction", "report", SAMPLES / "claude_code_session.jsonl",
                           "--context-limit", "5000", "--store", tmp_path / "store", "-o", report],
                          cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    context = chromium_browser.new_context()
    try:
        expect_charts_drawn(context, report, charts=2)  # the waterfall and the replay
        page = context.pages[-1]
        expect(page.locator("h1")).to_have_text("Compaction report")
        expect(page.get_by_text(BOUNDARY_NAME)).to_be_visible()
    finally:
        context.close()


def test_the_downloaded_report_opens_offline(app_page, chromium_browser, tmp_path):
    open_nav_page(app_page, "Pipeline", "Pipeline")
    with app_page.expect_download() as download:
        app_page.get_by_role("button", name="Download report").click()
    assert download.value.suggested_filename == "seed_demo_report.html"
    report = tmp_path / download.value.suggested_filename
    download.value.save_as(report)
    context = chromium_browser.new_context()
    try:
        expect_charts_drawn(context, report, charts=2)
        expect(context.pages[-1]).to_have_title("Compaction report: seed_demo.json")
    finally:
        context.close()
