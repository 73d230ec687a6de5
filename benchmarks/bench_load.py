"""Load: N concurrent browser sessions (contexts of one chromium) against one `streamlit run app.py`.

Each session uploads its own generated conversation, opens the Pipeline page and moves sliders with the
keyboard; after every step it waits until the page shows the size the engine computes for that
conversation and those settings ("Sent, one pass"), so every result is checked, not just rendered.
Reports the latency of each step (action -> correct value on screen) as p50 / p95 / max, and the
server's peak resident memory (VmHWM from /proc, the server and its children).

    .venv/bin/python benchmarks/bench_load.py [--sessions 8] [--turns 60]

Everything runs on 127.0.0.1; the server is started here and stopped at the end.
tests/browser/test_hardening.py runs `run_load` against its shared server (8 sessions).
"""

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests" / "browser")]

from compaction import run_pipeline  # noqa: E402
from compaction.generate import realistic_session  # noqa: E402
from compaction.model.settings import DEFAULTS  # noqa: E402
from compaction.storage.outputs import OutputStore  # noqa: E402
from dashboard.render.units import compact_number  # noqa: E402
from dashboard.ui.sliders import MAIN_SLIDERS  # noqa: E402

IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
STEP_TIMEOUT_MS = 120_000  # hang detection per step
# (step name, slider label, key pressed, the settings after the press)
# the ends of the CONTEXT_LIMIT slider's round values (the box reaches further)
_LOW, _HIGH = MAIN_SLIDERS[0].options(MAIN_SLIDERS[0].default)[0], MAIN_SLIDERS[0].options(MAIN_SLIDERS[0].default)[-1]
STEPS = [
    ("CONTEXT_LIMIT min", "CONTEXT_LIMIT (characters)", "Home", {"context_limit": _LOW}),
    ("KEEP_RECENT min", "KEEP_RECENT (tool results)", "Home", {"context_limit": _LOW, "keep_recent": 0}),
    ("CONTEXT_LIMIT max", "CONTEXT_LIMIT (characters)", "End", {"context_limit": _HIGH, "keep_recent": 0}),
    ("KEEP_RECENT +1", "KEEP_RECENT (tool results)", "ArrowRight", {"context_limit": _HIGH, "keep_recent": 1}),
]


@dataclass
class LoadReport:
    sessions: int
    latencies: dict[str, list[float]] = field(default_factory=dict)  # step -> seconds, one per session
    checked: int = 0  # results compared with the engine's
    peak_rss_bytes: int = 0
    wall_s: float = 0.0

    @property
    def all_latencies(self) -> list[float]:
        return sorted(value for values in self.latencies.values() for value in values)

    def percentile(self, share: float) -> float:
        values = self.all_latencies
        return values[min(len(values) - 1, round(share * (len(values) - 1)))]

    def summary(self) -> str:
        values = self.all_latencies
        lines = [f"{self.sessions} concurrent browser sessions, {len(values)} steps, {self.checked} results "
                 f"checked against the engine, {self.wall_s:.1f} s wall",
                 f"latency (action -> correct value shown): p50 {statistics.median(values):.2f} s, "
                 f"p95 {self.percentile(0.95):.2f} s, max {values[-1]:.2f} s"]
        for step, step_values in self.latencies.items():
            lines.append(f"  {step:<18} p50 {statistics.median(step_values):.2f} s  max {max(step_values):.2f} s")
        lines.append(f"server peak RSS (VmHWM, server + children): {self.peak_rss_bytes / 2**20:.0f} MB")
        return "\n".join(lines)


def write_conversations(folder: Path, sessions: int, turns: int) -> list[tuple[Path, dict[str, str]]]:
    """One generated conversation per session, and the 'Sent, one pass' value (characters) after each step.

    Seeds are picked so that every step changes the value shown: a step whose result looked the same
    as the one before could pass before the rerun finished.
    """
    made, seed = [], 1000
    while len(made) < sessions:
        seed += 1
        messages = realistic_session(turns=turns, seed=seed)
        with tempfile.TemporaryDirectory() as root:
            store = OutputStore(root)
            expected = {"upload": compact_number(run_pipeline(messages, DEFAULTS, store).final.size)}
            for step, _, _, changes in STEPS:
                result = run_pipeline(messages, DEFAULTS.replace(**changes), store)
                expected[step] = compact_number(result.final.size)
        shown = list(expected.values())
        if any(before == after for before, after in zip(shown, shown[1:], strict=False)):
            continue
        path = folder / f"load_session_{len(made)}.json"
        path.write_text(json.dumps(messages))
        made.append((path, expected))
    return made


def peak_rss(pid: int) -> int:
    """VmHWM (peak resident set) of a process and all its descendants, in bytes."""
    total, pending = 0, [pid]
    while pending:
        current = pending.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            for task in Path(f"/proc/{current}/task").iterdir():
                pending.extend(int(child) for child in (task / "children").read_text().split())
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                total += int(line.split()[1]) * 1024
    return total


async def _session(browser, url: str, upload: Path, expected: dict[str, str], report: LoadReport) -> None:
    from playwright.async_api import expect

    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = await context.new_page()
        # every action waits as long as a step may (the sidebar's links too): a bound against a hang, not a timing
        page.set_default_timeout(STEP_TIMEOUT_MS)
        await page.goto(url)
        await page.wait_for_selector(IDLE, state="attached", timeout=STEP_TIMEOUT_MS)
        sent = page.locator("[data-testid='stMetric']", has_text="Sent, one pass").locator(
            "[data-testid='stMetricValue']")

        async def timed(step: str, action) -> None:
            start = time.perf_counter()
            await action()
            await expect(sent).to_have_text(expected[step], timeout=STEP_TIMEOUT_MS)
            report.latencies.setdefault(step, []).append(time.perf_counter() - start)
            report.checked += 1

        async def upload_and_open_pipeline() -> None:
            await page.get_by_role("tab", name="Upload a file").click()
            await page.locator("[data-testid='stFileUploader'] input[type='file']").set_input_files(str(upload), timeout=STEP_TIMEOUT_MS)
            await expect(page.get_by_text(f"Loaded: {upload.name}")).to_be_visible(timeout=STEP_TIMEOUT_MS)
            await page.locator("[data-testid='stSidebarNav'] a", has_text="Pipeline").click()

        await timed("upload", upload_and_open_pipeline)
        await expect(page.get_by_text(f"{upload.name} through the four layers")).to_be_visible()
        for step, label, key, _ in STEPS:
            slider = page.get_by_role("slider", name=label)

            async def press(slider=slider, key=key) -> None:
                await slider.focus()
                await page.keyboard.press(key)

            await timed(step, press)
        exceptions = await page.locator("[data-testid='stException']").count()
        if exceptions:
            raise AssertionError(f"{upload.name}: the app raised an exception")
    finally:
        await context.close()


async def _run(browser, url: str, uploads) -> LoadReport:
    report = LoadReport(len(uploads))
    start = time.perf_counter()
    await asyncio.gather(*(_session(browser, url, path, expected, report) for path, expected in uploads))
    report.wall_s = time.perf_counter() - start
    return report


def run_load(url: str, server_pid: int, folder: Path, sessions: int = 8, turns: int = 60,
             chromium: str = "/usr/bin/chromium") -> LoadReport:
    """Drive `sessions` concurrent contexts of one chromium against the app at `url`."""
    from playwright.async_api import async_playwright

    uploads = write_conversations(folder, sessions, turns)

    async def main() -> LoadReport:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            try:
                return await _run(browser, url, uploads)
            finally:
                await browser.close()

    report = asyncio.run(main())
    report.peak_rss_bytes = peak_rss(server_pid)
    return report


def main() -> None:
    from browser_helpers import CHROMIUM, start_streamlit

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--turns", type=int, default=60, help="turns of each generated conversation")
    args = parser.parse_args()
    server = start_streamlit()
    try:
        with tempfile.TemporaryDirectory() as folder:
            report = run_load(server.url, server.proc.pid, Path(folder), args.sessions, args.turns, CHROMIUM)
        print(report.summary())
    finally:
        server.stop()


if __name__ == "__main__":
    main()
