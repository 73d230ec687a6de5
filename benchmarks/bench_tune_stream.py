"""Tune in a real browser on the realistic sample (500 model calls): the click on the page to its first
cells on screen, and to the whole 10 x 10 grid.

    .venv/bin/python benchmarks/bench_tune_stream.py [--repeat 3]

Loads sample_data/realistic_session.json as bench_dashboard.py does, then, each round in a new browser
session (so the sweep is not cached), clicks Tune in the sidebar and times until the heatmap on screen
holds a first value, then until it holds all 100 and the script run has finished; then the same grid
again (cached). The heatmap is read from plotly's own data on the page. The server runs this
checkout (first on its path); each round gives the load average (1 minute) as it ends, and the CPU
seconds the server spent from the click to the whole grid. Writes benchmarks/results/bench_tune_stream.json.
"""

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_dashboard import open_realistic_pipeline  # noqa: E402
from browser_helpers import CELLS_ON_SCREEN, CHROMIUM, browser_unavailable, start_streamlit  # noqa: E402

AT_LEAST = f"""(count) => ({CELLS_ON_SCREEN})() >= count"""
FINISHED = f"""(count) => {{
    const app = document.querySelector("[data-testid='stApp']");
    return !!app && app.getAttribute("data-test-script-state") === "notRunning" && ({CELLS_ON_SCREEN})() >= count;
}}"""


def visit_tune(page, cells: int) -> tuple[float, float]:
    """(seconds to the first cell on screen, to the whole grid) after the click on Tune."""
    started = time.perf_counter()
    page.locator("[data-testid='stSidebarNav'] a", has_text="Tune").click()
    page.wait_for_function(AT_LEAST, arg=1, timeout=120_000, polling=20)
    first = time.perf_counter() - started
    page.wait_for_function(FINISHED, arg=cells, timeout=120_000, polling=20)
    return first, time.perf_counter() - started


def server_cpu(pid: int) -> float:
    """CPU seconds (user + system) the server process and its threads have spent so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    reason = browser_unavailable()
    if reason:
        sys.exit(f"cannot run: {reason}")
    from playwright.sync_api import sync_playwright

    server = start_streamlit(env={"PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))})
    rounds = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            for number in range(args.repeat):
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                open_realistic_pipeline(page, server.url)
                cpu = server_cpu(server.proc.pid)
                first, whole = visit_tune(page, 100)
                cpu = server_cpu(server.proc.pid) - cpu
                page.locator("[data-testid='stSidebarNav'] a", has_text="Pipeline").click()
                page.locator("h1", has_text="Pipeline").wait_for()
                _, again = visit_tune(page, 100)
                load = os.getloadavg()[0]
                rounds.append({"first_cells_s": round(first, 3), "whole_grid_s": round(whole, 3),
                               "again_cached_s": round(again, 3), "server_cpu_s": round(cpu, 3),
                               "load_average": round(load, 1)})
                print(f"round {number + 1}: first cells {first:.2f} s, whole grid {whole:.2f} s (server CPU "
                      f"{cpu:.2f} s), the same grid again {again:.2f} s; load average {load:.1f}", flush=True)
                page.close()
            browser.close()
    finally:
        server.stop()
    summary = {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
    print("median: " + ", ".join(f"{key} {value:.2f}" for key, value in summary.items()))
    out = ROOT / "benchmarks" / "results" / "bench_tune_stream.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"sample": "realistic_session.json", "rounds": rounds, "median": summary}, indent=1)
                   + "\n")


if __name__ == "__main__":
    main()
