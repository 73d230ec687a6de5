"""Corpus speed and memory: `python -m compaction corpus` over generated sessions on disk.

    .venv/bin/python benchmarks/bench_corpus.py [--sessions 1000] [--small 10] [--workers 2]
                                                [--repeat 3]
                                                [--sweep "context_limit=20000,50000,100000 keep_recent=1,3,5"]

Starts where a user starts: a folder of session files (write_corpus: Claude Code JSONL and Anthropic
JSON, 4 to 80 turns each) plus one corrupt file, and the command line in a child process. Reports
  - the rows of --sessions sessions with 1 worker and with --workers, --repeat times each, alternating,
    and the ratio of the best times (on 2 cores, 2 workers should take at most 0.65x the time of 1);
  - peak memory (resident, the command plus its worker processes, sampled every 20 ms) with --sessions
    and with --small sessions: streaming keeps it bound to the workers, not the corpus;
  - the corpus sweep of all sessions with --workers, and that the corrupt file is reported on its row.
The load average before each run is printed: the machine may be shared.
"""

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compaction.generate.corpus import write_corpus  # noqa: E402

CORRUPT = "exports/broken/cut-off.json"


def write(folder: Path, sessions: int) -> int:
    written = write_corpus(folder, sessions, seed=1)
    corrupt = folder / CORRUPT
    corrupt.parent.mkdir(parents=True, exist_ok=True)
    corrupt.write_bytes(b'[{"role": "user", "content": "Fix the export crash"}, {"role": "assis')
    return sum(session.path.stat().st_size for session in written) + corrupt.stat().st_size


def tree_rss(process: psutil.Process) -> int:
    total = 0
    for member in (process, *process.children(recursive=True)):
        with contextlib.suppress(psutil.Error):  # a worker that just exited
            total += member.memory_info().rss
    return total


def run(folder: Path, *args: str) -> tuple[float, float, int, dict]:
    """(seconds, CPU seconds of the command and its workers, their peak resident bytes, its JSON output)."""
    with tempfile.TemporaryFile("w+") as output, tempfile.TemporaryFile("w+") as errors:
        start = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "compaction", "corpus", str(folder), "--json", *args],
                                 cwd=ROOT, stdout=output, stderr=errors, text=True)
        peak, watched = 0, psutil.Process(child.pid)
        done = threading.Event()

        def sample() -> None:
            nonlocal peak
            while not done.is_set():
                peak = max(peak, tree_rss(watched))
                time.sleep(0.02)

        sampler = threading.Thread(target=sample)
        sampler.start()
        _, status, usage = os.wait4(child.pid, 0)  # the workers' CPU time is counted once they are joined
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        done.set()
        sampler.join()
        if child.returncode:
            errors.seek(0)
            raise SystemExit(f"corpus failed ({child.returncode}): {errors.read()}")
        output.seek(0)
        return seconds, usage.ru_utime + usage.ru_stime, peak, json.load(output)


def load() -> str:
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--small", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3, help="runs of the row timings, 1 and N workers alternating")
    parser.add_argument("--sweep", default="context_limit=20000,50000,100000 keep_recent=1,3,5")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; load average (1, 5, 15 min) at start: {load()}")
    with tempfile.TemporaryDirectory() as scratch:
        big, small = Path(scratch, "big"), Path(scratch, "small")
        size = write(big, args.sessions)
        write(small, args.small)
        print(f"corpus: {args.sessions:,} sessions + 1 corrupt file, {size / 1e6:,.0f} MB on disk")

        timings: dict[int, list[float]] = {1: [], args.workers: []}
        for attempt in range(args.repeat):  # alternating, so a burst of load elsewhere hits both
            for workers in (1, args.workers):
                print(f"  load before {workers} worker(s): {load()}")
                seconds, cpu, peak, data = run(big, "--workers", str(workers))
                timings[workers].append(seconds)
                errors = [row for row in data["sessions"] if row["error"]]
                print(f"rows, {workers} worker(s), run {attempt + 1}: {seconds:6.1f} s ({cpu:.1f} s of CPU), "
                      f"{len(data['sessions']):,} rows, {len(errors)} with an error, peak memory {peak / 2**20:,.0f} MB")
        best = {workers: min(times) for workers, times in timings.items()}
        print(f"time ratio {args.workers} workers / 1 worker (best of {args.repeat} each): "
              f"{best[args.workers]:.1f} s / {best[1]:.1f} s = {best[args.workers] / best[1]:.2f}")

        print(f"  load before the small corpus: {load()}")
        seconds, _, small_peak, _ = run(small, "--workers", str(args.workers))
        print(f"rows, {args.small} sessions, {args.workers} workers: {seconds:6.1f} s, "
              f"peak memory {small_peak / 2**20:,.0f} MB (vs {peak / 2**20:,.0f} MB with {args.sessions:,})")

        print(f"  load before the sweep: {load()}")
        seconds, cpu, sweep_peak, data = run(big, "--workers", str(args.workers), "--sweep", *args.sweep.split())
        [corrupt] = [row for row in data["sessions"] if row["error"]]
        cells = data["sweep"]["measures"]["saved_share"]
        print(f"sweep {args.sweep}, {args.workers} workers: {seconds:6.1f} s ({cpu:.1f} s of CPU) for "
              f"{data['sweep']['sessions']:,} sessions, peak memory {sweep_peak / 2**20:,.0f} MB")
        print(f"  median saved share per cell: {[[round(v, 3) for v in row] for row in cells['median']]}")
        print(f"  p90 saved share per cell:    {[[round(v, 3) for v in row] for row in cells['p90']]}")
        print(f"  the corrupt file's row: {corrupt['error']}")
    print(f"load average at the end: {load()}")


if __name__ == "__main__":
    main()
