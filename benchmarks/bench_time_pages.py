"""Opening the Replay, Compare and Tune pages in a real browser on the realistic sample (500 model calls).

    .venv/bin/python benchmarks/bench_time_pages.py

Loads sample_data/realistic_session.json as bench_dashboard.py does, then clicks each page in the
sidebar and times until its chart is drawn and the script run has finished. Tune is opened twice: the
first visit runs the 10 x 10 sweep (with its progress bar), the second finds it cached. Writes
benchmarks/results/bench_time_pages.json.
"""

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_dashboard import open_realistic_pipeline  # noqa: E402
from browser_helpers import CHROMIUM, browser_unavailable, start_streamlit  # noqa: E402

VISITS = [("Replay", "Replay"), ("Compare", "Compare strategies"), ("Tune", "Tune"), ("Pipeline", "Pipeline"),
          ("Tune", "Tune")]
DRAWN = """(title) => {
    const app = document.querySelector("[data-testid='stApp']");
    if (!app || app.getAttribute("data-test-script-state") !== "notRunning") return false;
    const heading = document.querySelector("h1");
    return !!heading && heading.textContent.startsWith(title)
        && document.querySelectorAll("[data-testid='stPlotlyChart'] .main-svg").length > 0;
}"""


def main() -> None:
    reason = browser_unavailable()
    if reason:
        sys.exit(f"cannot run: {reason}")
    from playwright.sync_api import sync_playwright

    server = start_streamlit(ROOT / "app.py")
    timings = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            open_realistic_pipeline(page, server.url)
            for link, title in VISITS:
                started = time.perf_counter()
                page.locator("[data-testid='stSidebarNav'] a", has_text=link).click()
                page.wait_for_function(DRAWN, arg=title, timeout=120_000)
                timings.append({"page": link, "seconds": round(time.perf_counter() - started, 3)})
                print(f"{link:10s} {timings[-1]['seconds']:.2f} s")
            browser.close()
    finally:
        server.stop()
    out = ROOT / "benchmarks" / "results" / "bench_time_pages.json"
    out.parent.mkdir(parents=True, exist_ok=True)  # results/ is not kept in git: a fresh clone has none
    out.write_text(json.dumps({"sample": "realistic_session.json", "visits": timings}, indent=1) + "\n")


if __name__ == "__main__":
    main()
