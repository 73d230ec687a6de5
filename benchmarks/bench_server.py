"""What the server spends per interaction, with no browser in the way.

    .venv/bin/python benchmarks/bench_server.py [--sessions 1,8,16] [--moves 4] [--no-browser]

The server (`streamlit run app.py`) is pinned to core 0; this client to core 1. The sessions are driven
by a light client (streamlit_client.py) that speaks Streamlit's own websocket protocol and keeps what a
browser tab keeps (every widget's value, the query string, the cache of large messages), so the server
does a tab's work while the client costs a fraction of a chromium page. Every session does what a
person does: opens the app (the Conversation page), picks the bundled 500-turn sample
(realistic_session.json) in the sample picker and presses "Load this sample", opens the Pipeline page
and moves the KEEP_RECENT slider up by one `--moves` times. Each step waits for the run's
script_finished; on the Pipeline page every run must carry the "Sent to the model" value the engine
computes for those settings (a wrong or missing value stops the benchmark: it is an error, not a timing).

The sessions of one row go through the steps together (all open the app, then all load the sample, then
all open Pipeline, then each moves the slider as fast as its runs come back), and the server's CPU
(utime + stime of its process, all threads, from /proc, in 10 ms ticks) is read between the steps: per
page open is a step's CPU divided by the sessions, per move the moves' CPU divided by their number.
Before the rows, one session warms the server up (imports, the sample's first load and measurement,
which every later session shares), so no row pays for them. A session alone on the server (a 1-session
row) also has each move's CPU read on its own: that is the "per slider move, alone" line, median and
mean (a move that pays for one of Python's full garbage collections, about 0.2 s with the shared
caches loaded, stands out there). Latency is from sending the move to its checked script_finished.

The last line is one real chromium tab (browser_slider_latency.py, on core 1 too): the key press to the
value on screen, which adds the browser's own work to the protocol's latency. Kept for that one figure;
with more tabs the chromium pages, not the server, set the latency (8 pages shared one core: p50 4.3 s
while the server used 4.5 CPU s in all), which is why the sessions are light clients.
Everything runs on 127.0.0.1; the server is started here and stopped at the end.
"""

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests" / "browser"), str(REPO / "benchmarks")]

from streamlit_client import StreamlitTab  # noqa: E402

from compaction import run_pipeline  # noqa: E402
from compaction.importers import load_conversation  # noqa: E402
from compaction.model.settings import DEFAULTS  # noqa: E402
from compaction.storage.outputs import OutputStore  # noqa: E402
from dashboard.render.units import CHARS, describe  # noqa: E402

SAMPLE = "realistic_session.json"
SLIDER = "KEEP_RECENT"
FIRST_KEEP_RECENT = 3  # the slider's default
METRIC = "Sent to the model"
TICKS = os.sysconf("SC_CLK_TCK")
TARGET_CPU_S, TARGET_SESSIONS, TARGET_P95_S = 0.15, 8, 1.5  # issue 14
SETTLE_S = 0.3  # after the last run of a step, for the server's work that follows its script_finished


def server_cpu(pid: int) -> float:
    """CPU seconds the process has used so far (all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def expected_values(moves: int) -> list[str]:
    """'Sent to the model' after loading (KEEP_RECENT 3) and after each move up by one."""
    conversation = load_conversation(REPO / "sample_data" / SAMPLE)
    with tempfile.TemporaryDirectory() as root:
        return [describe(run_pipeline(conversation, DEFAULTS.replace(keep_recent=FIRST_KEEP_RECENT + step),
                                      OutputStore(root)).final.size, CHARS) for step in range(moves + 1)]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def check(run, what: str, expected: str | None = None) -> None:
    if not run.succeeded:
        raise AssertionError(f"{what}: the run ended with status {run.status}, not successfully")
    if run.exceptions():
        raise AssertionError(f"{what}: the app raised {run.exceptions()[0][:300]}")
    if expected is not None and run.metric(METRIC) != expected:
        raise AssertionError(f"{what}: {METRIC!r} shows {run.metric(METRIC)!r}, the engine computes {expected!r}")


async def open_app(tab: StreamlitTab) -> None:
    check(await tab.rerun(), "first visit")


async def load_sample(tab: StreamlitTab) -> None:
    check(await tab.rerun([tab.select("sample_choice", SAMPLE)]), "picking the sample")
    run = await tab.rerun([tab.click("load_sample")])
    check(run, "loading the sample")
    if not run.find("heading", lambda heading: heading.body == f"Loaded: {SAMPLE}"):
        raise AssertionError(f"after 'Load this sample' the page does not say 'Loaded: {SAMPLE}'")


async def open_pipeline(tab: StreamlitTab, expected: list[str]) -> float:
    run = await tab.rerun(page=tab.page_hash("Pipeline"))
    check(run, "opening the Pipeline page", expected[0])
    return run.seconds


async def move_slider(tab: StreamlitTab, expected: list[str], session: int, alone_pid: int | None = None
                      ) -> list[tuple[float, float | None]]:
    """(latency, server CPU or None) of each move; the CPU only when the session is alone on the server."""
    moves = []
    for step, value in enumerate(expected[1:], start=1):
        cpu = server_cpu(alone_pid) if alone_pid else None
        run = await tab.rerun([tab.slider_value(SLIDER, FIRST_KEEP_RECENT + step)])
        check(run, f"session {session}, {SLIDER} move {step}", value)
        if alone_pid:
            await asyncio.sleep(SETTLE_S / 3)
            cpu = server_cpu(alone_pid) - cpu
        moves.append((run.seconds, cpu))
    return moves


@dataclass
class Row:
    sessions: int
    cpu: dict[str, float] = field(default_factory=dict)  # step -> server CPU seconds, all sessions
    wall: dict[str, float] = field(default_factory=dict)  # step -> seconds
    move_latencies: list[float] = field(default_factory=list)
    move_cpu: list[float] = field(default_factory=list)  # each move's server CPU, one session alone only
    pipeline_latencies: list[float] = field(default_factory=list)
    client_cpu_s: float = 0.0

    COLUMNS = ("sessions", "moves", "move latency p50 / p95 / max", "server CPU per move",
               "per open: first visit / sample / Pipeline", "Pipeline open p95", "server CPU in all (wall)",
               "client CPU")

    @classmethod
    def header(cls) -> str:
        return "  ".join(cls.COLUMNS)

    def line(self) -> str:
        n, moves, lat = self.sessions, len(self.move_latencies), self.move_latencies
        cells = (f"{n}", f"{moves}", f"{statistics.median(lat):.2f} / {percentile(lat, 0.95):.2f} / {max(lat):.2f} s",
                 f"{self.cpu['moves'] / moves:.3f} s",
                 f"{self.cpu['open'] / n:.3f} / {self.cpu['load'] / n:.3f} / {self.cpu['pipeline'] / n:.3f} s",
                 f"{percentile(self.pipeline_latencies, 0.95):.2f} s",
                 f"{sum(self.cpu.values()):.2f} s ({sum(self.wall.values()):.1f} s)", f"{self.client_cpu_s:.2f} s")
        return "  ".join(cell.rjust(len(title)) for cell, title in zip(cells, self.COLUMNS, strict=True))


async def run_sessions(url: str, server_pid: int, sessions: int, expected: list[str]) -> Row:
    """`sessions` light clients through the steps together; the server's CPU read between the steps."""
    row = Row(sessions)
    tabs = await asyncio.gather(*(StreamlitTab.open(url) for _ in range(sessions)))
    client_start = time.process_time()
    alone_pid = server_pid if sessions == 1 else None

    async def step(name: str, work) -> list:
        cpu, start = server_cpu(server_pid), time.perf_counter()
        results = await asyncio.gather(*(work(index, tab) for index, tab in enumerate(tabs)))
        row.wall[name] = time.perf_counter() - start
        await asyncio.sleep(SETTLE_S)
        row.cpu[name] = server_cpu(server_pid) - cpu
        return results

    try:
        await step("open", lambda index, tab: open_app(tab))
        await step("load", lambda index, tab: load_sample(tab))
        row.pipeline_latencies = await step("pipeline", lambda index, tab: open_pipeline(tab, expected))
        for moves in await step("moves", lambda index, tab: move_slider(tab, expected, index, alone_pid)):
            row.move_latencies.extend(latency for latency, _ in moves)
            row.move_cpu.extend(cpu for _, cpu in moves if cpu is not None)
    finally:
        row.client_cpu_s = time.process_time() - client_start
        await asyncio.gather(*(tab.close() for tab in tabs))
    return row


def targets(rows: list[Row]) -> str:
    """The measures against issue 14's targets, from the rows that measure them."""
    alone = next((statistics.median(row.move_cpu) for row in rows if row.move_cpu), None)
    shared = next((percentile(row.move_latencies, 0.95) for row in rows if row.sessions == TARGET_SESSIONS), None)
    return (f"targets on 2 cores: server CPU per slider move alone <= {TARGET_CPU_S} s: "
            f"{'not measured (no 1-session row)' if alone is None else f'{alone:.3f} s'}; "
            f"p95 slider-to-chart with {TARGET_SESSIONS} sessions <= {TARGET_P95_S} s: "
            f"{'not measured' if shared is None else f'{shared:.2f} s'}")


def main() -> None:
    from browser_helpers import CHROMIUM, start_streamlit

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", default="1,8,16")
    parser.add_argument("--moves", type=int, default=4)
    parser.add_argument("--no-browser", action="store_true", help="skip the one real chromium tab")
    args = parser.parse_args()
    if not 1 <= args.moves <= 40:
        parser.error("--moves: from 1 to 40 (KEEP_RECENT goes up from 3 to at most 50)")
    expected = expected_values(args.moves)
    server = start_streamlit(cpus="0")
    os.sched_setaffinity(0, {1})  # this client, and the chromium it may start: the other core
    try:
        pid = server.proc.pid
        start = server_cpu(pid)
        warm = asyncio.run(run_sessions(server.url, pid, 1, expected))
        print(f"warm-up, one session: server CPU {server_cpu(pid) - start:.2f} s (first visit "
              f"{warm.wall['open']:.2f} s, sample load {warm.wall['load']:.2f} s)", flush=True)
        rows = []
        for sessions in (int(s) for s in args.sessions.split(",")):
            rows.append(asyncio.run(run_sessions(server.url, pid, sessions, expected)))
            if rows[-1].move_cpu:
                alone = rows[-1].move_cpu
                print(f"server CPU per slider move, one session alone: median {statistics.median(alone):.3f} s, "
                      f"mean {statistics.mean(alone):.3f} s ({' '.join(f'{cpu:.2f}' for cpu in alone)})", flush=True)
        print(Row.header())
        for row in rows:
            print(row.line(), flush=True)
        print(targets(rows), flush=True)
        if not args.no_browser:
            from browser_slider_latency import browser_slider_latencies

            latencies = asyncio.run(browser_slider_latencies(server.url, SAMPLE, expected, CHROMIUM))
            print(f"real chromium tab, one session: key press to value on screen p50 "
                  f"{statistics.median(latencies):.2f} s, max {max(latencies):.2f} s ({len(latencies)} moves)",
                  flush=True)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
