"""Click-to-screen latency of the KEEP_RECENT slider in one real headless chromium tab.

Used by bench_server.py for its one real-browser line: the same steps as its light client (load the
500-turn sample with the sample picker, open the Pipeline page, move KEEP_RECENT up by one with the
keyboard), timed from the key press until the page shows the value the engine computes and the app's
run has finished, checked in the page at every animation frame. Unlike the light client's figure, this
includes the browser's own work (applying the deltas, laying out the page, drawing the charts), so it
is what one person sees."""

import re
import time

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
TIMEOUT_MS = 180_000
# True once the app's run has finished and its "Sent to the model" metric shows `value`.
SHOWN = """value => {
    const app = document.querySelector("[data-testid='stApp']");
    if (!app || app.getAttribute("data-test-script-state") !== "notRunning") return false;
    const metric = [...document.querySelectorAll("[data-testid='stMetric']")]
        .find(element => element.textContent.includes("Sent to the model"));
    const shown = metric && metric.querySelector("[data-testid='stMetricValue']");
    return Boolean(shown) && shown.textContent.trim() === value;
}"""


async def _slider_latencies(browser, url: str, sample: str, expected: list[str]) -> list[float]:
    from playwright.async_api import expect

    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = await context.new_page()
        await page.goto(url, timeout=TIMEOUT_MS)
        await page.wait_for_selector(IDLE, state="attached", timeout=TIMEOUT_MS)
        await page.locator("[data-testid='stSelectbox']", has_text="Sample").click(timeout=TIMEOUT_MS)
        await page.get_by_role("option", name=sample, exact=False).click()
        await page.get_by_role("button", name="Load this sample").click()
        await expect(page.get_by_text(f"Loaded: {sample}", exact=False).first).to_be_visible(timeout=TIMEOUT_MS)
        sent = page.locator("[data-testid='stMetric']", has_text="Sent to the model").locator(
            "[data-testid='stMetricValue']")
        await page.locator("[data-testid='stSidebarNav'] a", has_text="Pipeline").click()
        await expect(sent).to_have_text(expected[0], timeout=TIMEOUT_MS)
        await page.wait_for_selector(IDLE, state="attached", timeout=TIMEOUT_MS)
        slider = page.get_by_role("slider", name=re.compile("KEEP_RECENT"))
        latencies = []
        for value in expected[1:]:
            await slider.focus()
            start = time.perf_counter()
            await page.keyboard.press("ArrowRight")
            # checked in the page at every animation frame: expect()'s own polling (100, 250, 500 ms...)
            # would round the latency up to its next poll
            await page.wait_for_function(SHOWN, arg=value, polling="raf", timeout=TIMEOUT_MS)
            latencies.append(time.perf_counter() - start)
        if await page.locator("[data-testid='stException']").count():
            raise AssertionError("the app raised an exception in the browser session")
        return latencies
    finally:
        await context.close()


async def browser_slider_latencies(url: str, sample: str, expected: list[str], chromium: str) -> list[float]:
    """Seconds from each key press to the expected 'Sent to the model' value on screen (one tab)."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            return await _slider_latencies(browser, url, sample, expected)
        finally:
            await browser.close()
