"""Loader speed on generated Claude Code session files (the format people bring most, and the slowest).

    .venv/bin/python benchmarks/bench_loaders.py [--sizes 1,5,20] [--repeat 3]

For each size, writes a Claude Code JSONL of about that many MB (realistic sessions exported with
split assistant lines and one user line per tool result, as Claude Code writes them), then times
`load_conversation` on it and prints the best of `repeat` runs in ms and ms per MB. The issue asks
for well under a second per MB. Also checks the loaded history is valid, so speed is not bought with
wrong output, and that the pipeline (default settings, offline summariser) keeps it valid.
"""

import argparse
import json
import tempfile
import time

from compaction.agents.claude_code.sample_log import ClaudeCodeLog  # noqa: E402
from compaction.generate import realistic_session  # noqa: E402
from compaction.importers import load_conversation  # noqa: E402
from compaction.layers.pipeline import run_pipeline  # noqa: E402
from compaction.model.validity import check_pairs  # noqa: E402
from compaction.storage.outputs import OutputStore  # noqa: E402


def claude_code_file(megabytes: float) -> bytes:
    """A session file of about `megabytes` MB: chunks of generated turns, appended until big enough."""
    log = ClaudeCodeLog(seed=1)
    log.messages(realistic_session(turns=1, seed=0)[:1])
    written, chunk = 0, 0
    while written < megabytes * 1_000_000:
        chunk += 1
        before = len(log.lines)
        # Drop each chunk's opening request so the chain stays user/assistant alternating.
        log.messages(realistic_session(turns=100, seed=chunk)[1:])
        written += sum(len(json.dumps(line, ensure_ascii=False)) + 1 for line in log.lines[before:])
    return log.jsonl().encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,5,20", help="comma-separated sizes in MB (default 1,5,20)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per size; the best is reported")
    args = parser.parse_args()
    print(f"{'size MB':>8} {'lines':>8} {'messages':>9} {'best ms':>9} {'ms/MB':>7}  loaded valid  "
          "pipeline valid")
    for size in (float(s) for s in args.sizes.split(",")):
        data = claude_code_file(size)
        timings = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            conversation = load_conversation(data, name=f"bench-{size:g}MB.jsonl")
            timings.append(time.perf_counter() - start)
        megabytes = len(data) / 1_000_000
        best_ms = min(timings) * 1000
        valid = not check_pairs(conversation.messages)
        with tempfile.TemporaryDirectory() as folder:
            pipeline_valid = not run_pipeline(conversation, store=OutputStore(folder)).problems
        lines = data.count(b"\n")
        print(f"{megabytes:8.1f} {lines:8,} {len(conversation.messages):9,} {best_ms:9.0f} "
              f"{best_ms / megabytes:7.0f}  {valid!s:>12}  {pipeline_valid!s:>14}")


if __name__ == "__main__":
    main()
