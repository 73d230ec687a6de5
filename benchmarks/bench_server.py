"""What the server spends per interaction, with the browsers kept off its core.

    .venv/bin/python benchmarks/bench_server.py [--sessions 1,8,16] [--moves 4]

The server (`streamlit run app.py`) is pinned to core 0 and this client, with the chromium it drives,
to core 1, so the browsers' work does not count as the server's nor slow it down. Each session loads
the bundled 500-turn sample (realistic_session.json) with the sample picker, opens the Pipeline page
and moves the KEEP_RECENT slider with the keyboard; after each step it waits until the page shows
what the engine computes for those settings ("Sent to the model"), so every result is checked.

Reports per number of concurrent sessions: the server's CPU seconds (utime + stime of its process, all
threads, from /proc) per slider move and per page open, and the latency from key press to the
correct value on screen, p50 / p95. A slider move's CPU is measured with one session alone (the
others would add their own runs); with many sessions the CPU is the total divided by the moves made.
Everything runs on 127.0.0.1; the server is started here and stopped at the end.
"""

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests" / "browser")]

from compaction import run_pipeline  # noqa: E402
from compaction.importers import load_conversation  # noqa: E402
from compaction.settings import DEFAULTS  # noqa: E402
from compaction.store import OutputStore  # noqa: E402
from dashboard.units import CHARS, describe  # noqa: E402

SAMPLE = "realistic_session.json"
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
TIMEOUT_MS = 180_000
TICKS = os.sysconf("SC_CLK_TCK")


def server_cpu(pid: int) -> float:
    """CPU seconds the process has used so far (all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def expected_values(moves: int) -> list[str]:
    """'Sent to the model' after loading (KEEP_RECENT 3) and after each move up by one."""
    conversation = load_conversation(REPO / "sample_data" / SAMPLE)
    with tempfile.TemporaryDirectory() as root:
        return [describe(run_pipeline(conversation, DEFAULTS.replace(keep_recent=3 + step), OutputStore(root))
                         .final.size, CHARS) for step in range(moves + 1)]


async def _session(browser, url: str, expected: list[str], latencies: list[float], opens: list[float],
                   server_pid: int, measure_opens: bool) -> None:
    from playwright.async_api import expect

    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = await context.new_page()
        await page.goto(url)
        await page.wait_for_selector(IDLE, state="attached", timeout=TIMEOUT_MS)
        await page.locator("[data-testid='stSelectbox']", has_text="Sample").click(timeout=TIMEOUT_MS)
        await page.get_by_role("option", name=SAMPLE, exact=False).click()
        await page.get_by_role("button", name="Load this sample").click()
        await expect(page.get_by_text(f"Loaded: {SAMPLE}", exact=False).first).to_be_visible(timeout=TIMEOUT_MS)
        sent = page.locator("[data-testid='stMetric']", has_text="Sent to the model").locator(
            "[data-testid='stMetricValue']")
        before = server_cpu(server_pid)
        await page.locator("[data-testid='stSidebarNav'] a", has_text="Pipeline").click()
        await expect(sent).to_have_text(expected[0], timeout=TIMEOUT_MS)
        await page.wait_for_selector(IDLE, state="attached", timeout=TIMEOUT_MS)
        if measure_opens:
            opens.append(server_cpu(server_pid) - before)
        slider = page.get_by_role("slider", name=re.compile("KEEP_RECENT"))
        for value in expected[1:]:
            start = time.perf_counter()
            await slider.focus()
            await page.keyboard.press("ArrowRight")
            await expect(sent).to_have_text(value, timeout=TIMEOUT_MS)
            await page.wait_for_selector(IDLE, state="attached", timeout=TIMEOUT_MS)
            latencies.append(time.perf_counter() - start)
        if await page.locator("[data-testid='stException']").count():
            raise AssertionError("the app raised an exception")
    finally:
        await context.close()


def run(url: str, server_pid: int, sessions: int, moves: int, chromium: str) -> dict:
    from playwright.async_api import async_playwright

    expected = expected_values(moves)
    latencies: list[float] = []
    opens: list[float] = []

    async def main() -> float:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            try:
                start = server_cpu(server_pid)
                await asyncio.gather(*(_session(browser, url, expected, latencies, opens, server_pid,
                                                sessions == 1) for _ in range(sessions)))
                return server_cpu(server_pid) - start
            finally:
                await browser.close()

    total_cpu = asyncio.run(main())
    latencies.sort()
    return {"sessions": sessions, "moves": len(latencies), "total_cpu_s": total_cpu,
            "p50_s": statistics.median(latencies) if latencies else None,
            "p95_s": latencies[min(len(latencies) - 1, round(0.95 * (len(latencies) - 1)))] if latencies else None,
            "open_cpu_s": opens[0] if opens else None}


def measure_moves_alone(url: str, server_pid: int, moves: int, chromium: str) -> float:
    """CPU seconds of the server per slider move, one session alone: the difference between a session
    that moves the slider `moves` times and one that does not."""
    with_moves = run(url, server_pid, 1, moves, chromium)["total_cpu_s"]
    without = run(url, server_pid, 1, 0, chromium)["total_cpu_s"] if moves else 0.0
    return (with_moves - without) / moves


def main() -> None:
    from browser_helpers import CHROMIUM, start_streamlit

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", default="1,8,16")
    parser.add_argument("--moves", type=int, default=4)
    args = parser.parse_args()
    server = start_streamlit(REPO / "app.py", cpus="0")
    os.sched_setaffinity(0, {1})  # this client and the chromium it starts: the other core
    try:
        per_move = measure_moves_alone(server.url, server.proc.pid, args.moves, CHROMIUM)
        print(f"server CPU per slider move (one session): {per_move:.3f} s", flush=True)
        for sessions in (int(s) for s in args.sessions.split(",")):
            row = run(server.url, server.proc.pid, sessions, args.moves, CHROMIUM)
            opened = f", page open {row['open_cpu_s']:.3f} s CPU" if row["open_cpu_s"] is not None else ""
            print(f"{sessions:>3} sessions: {row['moves']} moves, latency p50 {row['p50_s']:.2f} s, "
                  f"p95 {row['p95_s']:.2f} s; server CPU {row['total_cpu_s']:.2f} s in all, "
                  f"{row['total_cpu_s'] / max(row['moves'], 1):.3f} s per move with the loads{opened}", flush=True)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
