"""Pipeline speed against the tutorial's own code, at several sizes.

    .venv/bin/python benchmarks/bench_pipeline.py [--sizes 1,10,70] [--repeat 3]

Reports, per size: the tutorial's layers (size, L3, L1, L2 as its demo runs them), our prepare, our
first run, a re-run with new settings on the prepared conversation (the slider case), time per MB,
and the ratios the engine issue asks for (first run <= 1/2 of the tutorial, re-run <= 1/50).
"""

import argparse
import copy
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from seed_reference import run_seed_layers  # noqa: E402

from compaction import OutputStore, Settings, prepare, run_pipeline  # noqa: E402
from compaction.generate import generate  # noqa: E402


def scaled_seed(megabytes: float) -> list[dict]:
    """The seed demo's shape, scaled: read_file turns of ~760 characters and one huge last output."""
    turns = max(int(megabytes * 1_000_000 * 0.9 / 980), 60)
    messages = [{"role": "user", "content": "write a command line tool hello.py"}]
    for i in range(turns):
        messages.append({"role": "assistant", "content": [
            {"type": "tool_use", "id": f"t{i}", "name": "read_file", "input": {"path": f"src/module{i}.py"}}]})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"t{i}", "content": f"def func_{i}():\n    return {i}\n" * 25}]})
    rows = int(megabytes * 1_000_000 * 0.1 / 21)
    messages.append({"role": "assistant", "content": [
        {"type": "tool_use", "id": "tbig", "name": "bash", "input": {"command": "cat data/dump.json"}}]})
    messages.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "tbig",
                     "content": '{"rows": [' + ",".join(f'[1,"row-{i}",{i}]' for i in range(rows)) + "]}"}]})
    return messages


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def measure(name: str, messages: list[dict], repeat: int) -> dict:
    mb = len(str(messages)) / 1e6
    with tempfile.TemporaryDirectory() as root:
        copies = [copy.deepcopy(messages) for _ in range(repeat)]  # the tutorial's code mutates
        seed_times = []
        for msgs in copies:
            start = time.perf_counter()
            run_seed_layers(msgs, Path(root))
            seed_times.append(time.perf_counter() - start)
        seed = min(seed_times)
        store = OutputStore(Path(root) / "ours")
        prepared = None

        def first():
            nonlocal prepared
            prepared = prepare(messages)
            run_pipeline(prepared, Settings(), store)

        first_time = best(first, repeat)
        moves = [Settings(keep_recent=k, context_limit=c) for k in (1, 5) for c in (20_000, 80_000)]
        rerun = statistics.median(
            best(lambda s=s: run_pipeline(prepared, s, store), repeat) for s in moves)
    return {"name": name, "mb": mb, "seed": seed, "first": first_time, "rerun": rerun}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1,10,70", help="megabytes, comma separated")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rows = [measure("seed demo", generate("seed-demo"), args.repeat)]
    rows += [measure(f"{s} MB", scaled_seed(float(s)), args.repeat) for s in args.sizes.split(",")]
    print(f"{'input':<10}{'MB':>8}{'tutorial s':>12}{'first s':>10}{'re-run ms':>11}"
          f"{'first/tut':>11}{'re-run/tut':>12}{'first ms/MB':>13}")
    for r in rows:
        print(f"{r['name']:<10}{r['mb']:>8.1f}{r['seed']:>12.3f}{r['first']:>10.3f}{r['rerun'] * 1e3:>11.2f}"
              f"{r['first'] / r['seed']:>11.3f}{r['rerun'] / r['seed']:>12.4f}{r['first'] * 1e3 / r['mb']:>13.1f}")
    big, small = rows[-1], rows[1]
    growth = (big["first"] / small["first"]) / (big["mb"] / small["mb"])
    print(f"\ntime growth vs size growth from {small['name']} to {big['name']}: {growth:.2f} (1.0 = linear)")


if __name__ == "__main__":
    main()
