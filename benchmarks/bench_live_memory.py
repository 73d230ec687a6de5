"""Memory of following a long session: a Claude Code log written in the layout real logs have (responses
over two lines with their usage, tool results of 1-4 KB, progress lines, an auto compaction with its
summary every 150 calls) grows to LINES lines in STEPS steps; after each step the follower reads what
was added, as `compaction watch --json` does (every update formatted, with its forecast), and the
process's resident memory is read.

The figure is how much the process grew per 10,000 calls between the first step and the last (the
first step also pays for imports and the parser's first buffers). Run: `.venv/bin/python
benchmarks/bench_live_memory.py [--lines N] [--steps N]`.
"""

import argparse
import gc
import json
import tempfile
import time
from pathlib import Path

from compaction.live.follower import Follower
from compaction.live.report import as_json

SESSION = "0d9c6b2e-5a41-4f7e-8c3b-2a1f0e9d8c7b"
COMMON = {"isSidechain": False, "userType": "external", "entrypoint": "cli", "cwd": "/home/dev/app", "sessionId": SESSION,
          "version": "2.1.128", "gitBranch": "main"}
CALLS_PER_COMPACTION = 150


def _usage(context: int, output: int) -> dict:
    return {"input_tokens": 3, "cache_creation_input_tokens": 1_500, "cache_read_input_tokens": context - 1_503,
            "output_tokens": output, "service_tier": "standard",
            "cache_creation": {"ephemeral_1h_input_tokens": 1_500, "ephemeral_5m_input_tokens": 0}}


def session_lines():
    """Lines of an endless session, each a JSON text."""
    call, context, parent = 0, 20_000, None
    yield {**COMMON, "parentUuid": None, "type": "user", "uuid": "u0", "timestamp": "2026-05-05T21:00:00.000Z",
           "message": {"role": "user", "content": "Port the billing service to the new queue."}}
    parent = "u0"
    while True:
        call += 1
        message_id, tool_id = f"msg_{call:08d}", f"toolu_{call:08d}"
        text = {"type": "text", "text": f"Step {call}: reading the next module."}
        use = {"type": "tool_use", "id": tool_id, "name": "Read", "input": {"file_path": f"/home/dev/app/m{call}.py"}}
        for part, block in enumerate((text, use)):
            uuid = f"a{call}-{part}"
            yield {**COMMON, "parentUuid": parent, "type": "assistant", "uuid": uuid, "requestId": f"req_{call:08d}",
                   "timestamp": "2026-05-05T21:00:01.000Z",
                   "message": {"model": "claude-sonnet-4-6", "id": message_id, "type": "message", "role": "assistant",
                               "content": [block], "stop_reason": "tool_use", "usage": _usage(context, 180)}}
            parent = uuid
        if call % 3 == 0:
            yield {**COMMON, "parentUuid": parent, "type": "progress", "uuid": f"p{call}", "toolUseID": tool_id,
                   "timestamp": "2026-05-05T21:00:02.000Z", "data": {"type": "hook_progress", "hookEvent": "PreToolUse"}}
        body = "".join(f"{n}\tvalue_{call}_{n} = compute({n})\n" for n in range(40 + call % 100))
        yield {**COMMON, "parentUuid": parent, "type": "user", "uuid": f"r{call}", "sourceToolAssistantUUID": parent,
               "timestamp": "2026-05-05T21:00:03.000Z", "toolUseResult": {"type": "text", "file": {"content": body}},
               "message": {"role": "user", "content": [{"tool_use_id": tool_id, "type": "tool_result", "content": body}]}}
        parent = f"r{call}"
        context += 900
        if call % CALLS_PER_COMPACTION == 0:
            yield {**COMMON, "parentUuid": None, "logicalParentUuid": parent, "type": "system",
                   "subtype": "compact_boundary", "uuid": f"b{call}", "level": "info", "content": "Conversation compacted",
                   "timestamp": "2026-05-05T21:00:04.000Z",
                   "compactMetadata": {"trigger": "auto", "preTokens": context, "postTokens": 9_000}}
            yield {**COMMON, "parentUuid": f"b{call}", "type": "user", "uuid": f"c{call}", "isCompactSummary": True,
                   "timestamp": "2026-05-05T21:00:04.000Z",
                   "message": {"role": "user", "content": "This session is being continued from a previous conversation "
                                                          "that ran out of context. Summary: " + "porting. " * 400}}
            parent, context = f"c{call}", 29_000


def resident_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--steps", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{SESSION}.jsonl"
        path.write_bytes(b"")
        follower = Follower(path)
        lines = session_lines()
        per_step = args.lines // args.steps
        rows, started = [], time.perf_counter()
        for step in range(1, args.steps + 1):
            with open(path, "a", encoding="utf-8") as handle:
                for _ in range(per_step):
                    handle.write(json.dumps(next(lines)) + "\n")
            for reported in follower.updates():
                json.dumps(as_json(reported))  # what `compaction watch --json` prints, then drops
            gc.collect()
            rows.append((step * per_step, len(follower.session.calls), resident_mb(), follower.session.calls.nbytes(),
                         path.stat().st_size))
        elapsed = time.perf_counter() - started
    print(f"{'lines':>8} {'calls':>7} {'file MB':>8} {'RSS MB':>7} {'call columns KB':>16}")
    for written, calls, rss, columns, size in rows:
        print(f"{written:>8,} {calls:>7,} {size / 1e6:>8.1f} {rss:>7.1f} {columns / 1024:>16.0f}")
    (_, first_calls, first_rss, *_), (_, last_calls, last_rss, *_) = rows[0], rows[-1]
    per_10k = (last_rss - first_rss) / (last_calls - first_calls) * 10_000
    print(f"grew {last_rss - first_rss:.1f} MB from step 1 to step {args.steps} for {last_calls - first_calls:,} calls: "
          f"{per_10k:.2f} MB per 10,000 calls (least-squares slope over the steps: {slope(rows):.2f}; the call "
          f"columns: {rows[-1][3] / last_calls * 10_000 / 1e6:.2f}); {follower.source.reads[-1].number} reads, none "
          f"from the start ({follower.source.restarts} restarts); {elapsed:.1f} s in all (writing included)")


def slope(rows) -> float:
    """MB per 10,000 calls, fitted over every step (resident memory moves by a page or two each way)."""
    calls, rss = [row[1] for row in rows], [row[2] for row in rows]
    mean_calls, mean_rss = sum(calls) / len(calls), sum(rss) / len(rss)
    spread = sum((c - mean_calls) ** 2 for c in calls)
    return sum((c - mean_calls) * (r - mean_rss) for c, r in zip(calls, rss, strict=True)) / spread * 10_000


if __name__ == "__main__":
    main()
