"""Take docs/screenshot.png: the Pipeline page on the tutorial's demo, in Debian's chromium.

    .venv/bin/python docs/take_screenshot.py
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from browser_helpers import CHROMIUM, start_streamlit, wait_idle  # noqa: E402


def main() -> None:
    from playwright.sync_api import sync_playwright

    server = start_streamlit(ROOT / "app.py")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 1640})
            page.goto(f"{server.url}/pipeline")
            wait_idle(page)
            page.locator("[data-testid='stPlotlyChart']").nth(1).locator(".xtick").first.wait_for()
            page.wait_for_timeout(1000)  # let the charts finish their first animation
            page.screenshot(path=str(ROOT / "docs" / "screenshot.png"))
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
