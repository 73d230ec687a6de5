"""Tune's default grid of a log's own agent's knobs, as a person runs it from the command line, against one
replay of the same preset on the same file: both whole processes (start, import, load, work, print).

    .venv/bin/python benchmarks/bench_agent_grid.py FILE [--repeat 3] [--checkout DIR ...]

The grid is the one Tune opens with (the agent's Knob values at the log's Regime, the window the log shows),
swept with `python -m compaction sweep FILE --strategy <own preset> --x ... --y ... --json`; the replay is
`python -m compaction replay FILE --strategy <own preset>`. Each round runs the replay and the sweep back to
back (in every checkout given, e.g. another worktree for a before and after in one run); the medians of the
wall and CPU seconds (the child's user + system) and their ratios are printed with the load average beside
them, and how the sweep computed its cells (by_kernel, by_threshold, replays). The goal (issue 36): at most
3x one replay.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compaction.agents import agent_of  # noqa: E402
from compaction.importers import load_conversation  # noqa: E402
from compaction.measures.windows import log_window  # noqa: E402
from compaction.model.history import prepare  # noqa: E402
from compaction.strategies import Regime  # noqa: E402


def default_grid(path: Path) -> tuple[str, list[str]]:
    """(the own preset, the sweep's axis flags) of Tune's default grid on the file."""
    conversation = load_conversation(path)
    agent = agent_of(conversation.format)
    if agent is None or not agent.own_preset or not agent.knobs:
        sys.exit(f"{path}: its agent has no preset with knobs to sweep")
    regime = Regime.of(prepare(conversation), log_window(conversation.usage, conversation.metadata).tokens)
    flags = []
    for axis, knob in zip(("--x", "--y"), agent.knobs, strict=False):
        flags += [axis, f"{knob.param}={','.join(str(value) for value in knob.values(regime))}"]
    return agent.own_preset, flags


def timed(command: list[str], cwd: Path) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the child, its output)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--checkout", type=Path, action="append",
                        help="a checkout whose compaction the commands run (default: this one); repeatable")
    args = parser.parse_args()
    path = args.file.resolve()
    preset, axes = default_grid(path)
    checkouts = args.checkout or [ROOT]
    replay = [sys.executable, "-m", "compaction", "replay", str(path), "--strategy", preset]
    sweep = [sys.executable, "-m", "compaction", "sweep", str(path), "--strategy", preset, *axes, "--json"]
    print("replay:", " ".join(replay[1:]))
    print("sweep: ", " ".join(sweep[1:]))
    times: dict[Path, dict[str, list[float]]] = {c: {"replay": [], "replay_cpu": [], "sweep": [], "sweep_cpu": []}
                                                 for c in checkouts}
    counts: dict[Path, dict] = {}
    loads = []
    for _ in range(args.repeat):
        for checkout in checkouts:
            loads.append(os.getloadavg()[0])
            wall, cpu, _ = timed(replay, checkout)
            times[checkout]["replay"].append(wall)
            times[checkout]["replay_cpu"].append(cpu)
            wall, cpu, out = timed(sweep, checkout)
            times[checkout]["sweep"].append(wall)
            times[checkout]["sweep_cpu"].append(cpu)
            found = json.loads(out)
            counts[checkout] = {"cells": sum(len(row) for row in found["cells"]), "by_kernel": found["by_kernel"],
                                "by_threshold": found.get("by_threshold", 0), "replays": found["replays"]}
    print(f"load average (1 min) during the runs: {min(loads):.2f}-{max(loads):.2f} on {os.cpu_count()} cores")
    for checkout in checkouts:
        median = {name: statistics.median(values) for name, values in times[checkout].items()}
        print(f"{checkout}: replay {median['replay']:.2f} s ({median['replay_cpu']:.2f} s CPU), sweep "
              f"{median['sweep']:.2f} s ({median['sweep_cpu']:.2f} s CPU): {median['sweep'] / median['replay']:.2f}x "
              f"wall, {median['sweep_cpu'] / median['replay_cpu']:.2f}x CPU; {counts[checkout]}")


if __name__ == "__main__":
    main()
