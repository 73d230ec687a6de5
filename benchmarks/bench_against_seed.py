"""Replay and Tune's sweep, whole processes from the file, against the seed's own loop on the same file.

    .venv/bin/python benchmarks/bench_against_seed.py [--replay-sizes 1000,5000,10000]
        [--sweep-sizes 250,500,1000] [--workers 1,2] [--repeat 3]

The anchor is the seed's four functions driven naively through the seed's agent loop, re-measuring
`len(str(history))` (benchmarks/seed_loop.py), run as its own process. Ours are the command lines a
person runs: `compaction replay FILE` (every measure, the table printed) and `compaction sweep FILE
--x context_limit=10000,...,100000 --y keep_recent=1,...,10 --workers N` (Tune's default grid) against
`seed_loop.py FILE --sweep` (the same 100 cells, one replay each). Sessions are generate("realistic",
turns=N, seed=7), one model call per turn, written to JSON first. Each pair runs in turn, `--repeat`
times; the figures are the best wall-clock seconds of each, their ratio, and the CPU seconds (user +
system, of the process and its workers), which vary less on a busy machine, with the load average (1
minute) as the pair ends. Ours runs this checkout's engine (`python -m compaction` with the checkout
first on the path), whichever one the environment installed.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from compaction.generate import generate

HERE = Path(__file__).resolve().parent
PYTHON = sys.executable
COMPACTION = [PYTHON, "-m", "compaction"]
CHECKOUT = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(HERE.parent), os.environ.get("PYTHONPATH")]))}
LIMITS = ",".join(str(v) for v in range(10_000, 100_001, 10_000))
KEEPS = ",".join(str(v) for v in range(1, 11))


def timed(command: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its children) of one run."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=CHECKOUT)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed: {process.stderr.read().decode()[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


# the targets of the columnar-kernel issue (a ratio of wall seconds): the sweep of Tune's grid, and a
# long replay whose fixed costs (import, read, measure, term index) are most of its time
TARGETS = {"replay": {10_000: 0.30}, "sweep": {1_000: 0.05}}


def compare(label: str, ours: list[str], anchor: list[str], repeat: int, target: float | None = None) -> None:
    runs = {"ours": [], "anchor": []}
    for _ in range(repeat):
        runs["anchor"].append(timed(anchor))
        runs["ours"].append(timed(ours))
    best = {name: (min(w for w, _ in found), min(c for _, c in found)) for name, found in runs.items()}
    (ours_wall, ours_cpu), (anchor_wall, anchor_cpu) = best["ours"], best["anchor"]
    print(f"{label:<44}{anchor_wall:>9.2f}{ours_wall:>9.2f}{ours_wall / anchor_wall:>8.3f}x"
          f"{anchor_cpu:>10.2f}{ours_cpu:>9.2f}{ours_cpu / anchor_cpu:>8.3f}x"
          + (f"{target:>8.2f}x" if target is not None else f"{'':>9}") + f"{os.getloadavg()[0]:>7.1f}", flush=True)


def session(folder: str, turns: int) -> str:
    path = Path(folder, f"session-{turns}.json")
    path.write_text(json.dumps(generate("realistic", turns=turns, seed=7)), encoding="utf-8")
    return str(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replay-sizes", default="1000,5000,10000", help="calls per replayed session")
    parser.add_argument("--sweep-sizes", default="250,500,1000", help="calls per swept session")
    parser.add_argument("--workers", default="1,2", help="worker processes for the sweep, comma-separated")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'':<44}{'anchor s':>9}{'ours s':>9}{'ratio':>9}{'anchor cpu':>10}{'ours cpu':>9}{'ratio':>9}"
          f"{'target':>9}{'load':>7}")
    with tempfile.TemporaryDirectory() as folder:
        for turns in (int(n) for n in args.replay_sizes.split(",") if n):
            path = session(folder, turns)
            compare(f"replay, {turns:,} calls", [*COMPACTION, "replay", path],
                    [PYTHON, str(HERE / "seed_loop.py"), path], args.repeat, TARGETS["replay"].get(turns))
        for turns in (int(n) for n in args.sweep_sizes.split(",") if n):
            path = session(folder, turns)
            for workers in args.workers.split(","):
                compare(f"sweep 10 x 10, {turns:,} calls, {workers} process(es)",
                        [*COMPACTION, "sweep", path, "--x", f"context_limit={LIMITS}", "--y", f"keep_recent={KEEPS}",
                         "--workers", workers],
                        [PYTHON, str(HERE / "seed_loop.py"), path, "--sweep"], args.repeat,
                        TARGETS["sweep"].get(turns))


if __name__ == "__main__":
    main()
