"""Take the documentation's screenshots in Debian's chromium:

- docs/screenshot.png: the Pipeline page on the tutorial's demo (the README's picture);
- docs/screenshots/replay.png, compare.png, tune.png: those pages, whole, on the bundled long Claude Code
  sample (a log with usage that compacted itself twice).

    .venv/bin/python docs/take_screenshot.py
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from browser_helpers import CHROMIUM, load_sample, open_nav_page, start_streamlit, wait_idle  # noqa: E402

WIDTH = 1400
LONG_SAMPLE = "A long Claude Code session"
PAGES = {"replay": ("Replay", "Replay"), "compare": ("Compare", "Compare strategies"), "tune": ("Tune", "Tune")}


def settle(page) -> None:
    """Wait for the charts: they are drawn only once scrolled into view, so call it with the page all in view."""
    wait_idle(page)
    page.locator("[data-testid='stPlotlyChart'] g.ytick").first.wait_for(state="attached", timeout=120_000)
    page.wait_for_timeout(1000)  # let the charts finish their first animation


def whole_page(page, path: Path) -> None:
    """The page scrolls inside Streamlit's main block, not the window: make the window as tall as it."""
    height = page.evaluate("() => document.querySelector(\"[data-testid='stMain']\").scrollHeight")
    page.set_viewport_size({"width": WIDTH, "height": height})
    settle(page)
    height = page.evaluate("() => document.querySelector(\"[data-testid='stMain']\").scrollHeight")
    page.set_viewport_size({"width": WIDTH, "height": height})  # the charts drawn, the page may be taller
    page.wait_for_timeout(1000)
    page.screenshot(path=str(path))
    page.set_viewport_size({"width": WIDTH, "height": 1000})


def main() -> None:
    from playwright.sync_api import sync_playwright

    server = start_streamlit()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": WIDTH, "height": 1640})
            page.goto(f"{server.url}/pipeline")
            wait_idle(page)
            page.locator("[data-testid='stPlotlyChart']").nth(1).locator(".xtick").first.wait_for()
            page.wait_for_timeout(1000)
            page.screenshot(path=str(ROOT / "docs" / "screenshot.png"))

            page.set_viewport_size({"width": WIDTH, "height": 1000})
            open_nav_page(page, "Conversation", "Conversation")
            load_sample(page, LONG_SAMPLE)
            folder = ROOT / "docs" / "screenshots"
            folder.mkdir(exist_ok=True)
            for name, (link, title) in PAGES.items():
                open_nav_page(page, link, title)
                wait_idle(page)
                whole_page(page, folder / f"{name}.png")
                print(f"wrote {folder / name}.png")
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
