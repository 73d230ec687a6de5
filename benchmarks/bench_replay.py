"""Replay and sweep speed at several session sizes, and how the cost grows with the size.

    .venv/bin/python benchmarks/bench_replay.py [--sizes 100,1000,10000] [--sweep-sizes 100,500,1000]
                                                [--strategies pipeline,masking,summary_keep_last|all] [--repeat 3]

Sessions are `generate("realistic", turns=N, seed=7)` (one model call per turn), written to a JSON file
first: a replay starts from the conversation `load_conversation` read from it (as the Replay page does
with a loaded file; prepare included), and the notes give the load from the bytes on disk beside it.
Per size: seconds (best of --repeat), microseconds per turn, and the growth ratio: time ratio / size
ratio against the previous size (1.0 = linear).
The sweep is Tune's default 10 x 10 grid of CONTEXT_LIMIT x KEEP_RECENT with the offline summariser, on
the conversation read from its file in the same way.
"""

import argparse
import json
import tempfile
import time
from pathlib import Path

from compaction import OutputStore  # noqa: E402
from compaction.generate import generate  # noqa: E402
from compaction.importers import load_conversation  # noqa: E402
from compaction.replay.loop import replay  # noqa: E402
from compaction.strategies import REGISTRY  # noqa: E402
from compaction.sweep.parallel import open_executor  # noqa: E402
from compaction.sweep.sweeps import sweep  # noqa: E402
from dashboard.render.timeline import DEFAULT_AXES  # noqa: E402

# Tune's own default grid: the tutorial's defaults among ten values each
LIMITS = list(DEFAULT_AXES["context_limit"])
KEEP = list(DEFAULT_AXES["keep_recent"])


def best(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def report(label: str, rows: list[tuple[int, float, str]]) -> None:
    print(f"\n{label}")
    print(f"{'turns':>8} {'seconds':>9} {'us/turn':>9} {'growth':>7}  notes")
    previous = None
    for turns, seconds, notes in rows:
        growth = "" if previous is None else f"{(seconds / previous[1]) / (turns / previous[0]):.2f}"
        print(f"{turns:>8,} {seconds:>9.3f} {seconds / turns * 1e6:>9.0f} {growth:>7}  {notes}")
        previous = (turns, seconds)


def raw_side(totals: dict) -> str:
    """The uncompacted side; it stops at the call that first overflows the window."""
    stop = totals["raw_stop_call"]
    until = "" if stop is None else f" before it overflows at call {stop:,}"
    return f", uncompacted {totals['raw_tokens_sent']:,}{until}"


def session_file(folder: str, turns: int) -> Path:
    """The generated session of `turns` turns, written where a user's file would be."""
    path = Path(folder, f"session-{turns}.json")
    path.write_text(json.dumps(generate("realistic", turns=turns, seed=7)), encoding="utf-8")
    return path


def load(path: Path, repeat: int) -> tuple[object, float, float]:
    """(the conversation read from `path`, best seconds to read it, megabytes)."""
    seconds, conversation = best(lambda: load_conversation(path), repeat)
    return conversation, seconds, path.stat().st_size / 1e6


def bench_replays(sizes: list[int], strategies: list[str], repeat: int) -> None:
    with tempfile.TemporaryDirectory() as files:
        loaded = {n: load(session_file(files, n), repeat) for n in sizes}
        for strategy in strategies:
            rows = []
            for n in sizes:
                conversation, load_seconds, megabytes = loaded[n]
                with tempfile.TemporaryDirectory() as root:
                    seconds, result = best(lambda c=conversation, root=root, strategy=strategy: replay(
                        c, store=OutputStore(root), strategy=strategy), repeat)
                totals = result.totals
                rows.append((n, seconds, f"{totals['calls']:,} calls, {totals['summaries']} summaries, "
                             f"{totals['reactive']} reactive, peak {totals['peak_tokens']:,} tokens, "
                             f"sent {totals['tokens_sent']:,} tokens{raw_side(totals)}; "
                             f"loading its {megabytes:.1f} MB file before: {load_seconds:.3f} s"))
            report(f"replay, strategy {strategy}, default settings, model window 200,000 tokens", rows)


def bench_sweeps(sizes: list[int], repeat: int, workers: int) -> None:
    with tempfile.TemporaryDirectory() as files:
        loaded = {n: load(session_file(files, n), repeat) for n in sizes}
        for count in sorted({1, workers}):
            rows = []
            with open_executor(count) as executor:
                for n in sizes:
                    conversation, load_seconds, megabytes = loaded[n]
                    seconds, result = best(lambda c=conversation: sweep(
                        c, ("context_limit", LIMITS), ("keep_recent", KEEP), executor=executor), repeat)
                    rows.append((n, seconds, f"{result.replays} replays for 100 cells, "
                                 f"{seconds / result.replays * 1000:.0f} ms per replay; loading its "
                                 f"{megabytes:.1f} MB file before: {load_seconds:.3f} s"))
            report(f"sweep, 10 x 10 (CONTEXT_LIMIT x KEEP_RECENT), pipeline, {count} process(es)", rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000", help="turns per replayed session")
    parser.add_argument("--sweep-sizes", default="100,500,1000", help="turns per swept session")
    parser.add_argument("--strategies", default="pipeline,masking,summary_keep_last",
                        help="names from `python -m compaction strategies`, comma-separated, or all")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2, help="worker processes for the sweeps (1 = this one)")
    args = parser.parse_args()
    strategies = list(REGISTRY) if args.strategies == "all" else args.strategies.split(",")
    bench_replays([int(s) for s in args.sizes.split(",")], strategies, args.repeat)
    bench_sweeps([int(s) for s in args.sweep_sizes.split(",")], max(1, args.repeat - 1), args.workers)


if __name__ == "__main__":
    main()
