"""The anchor for the replay and sweep benchmarks: the seed's own four functions driven naively through
the seed's agent loop over a recorded conversation.

    .venv/bin/python benchmarks/seed_loop.py FILE [--context-limit 50000] [--keep-recent 3]
    .venv/bin/python benchmarks/seed_loop.py FILE --sweep     # Tune's default 10 x 10 grid, cell by cell

Before every model call (every assistant message of the file) the loop runs, as the seed's
`agent_loop` does: `messages[:] = tool_result_budget(messages)`, `snip_compact`, `micro_compact`, and
`compact_history` when `estimate_size(messages) > CONTEXT_LIMIT`; then it measures what the call sends
(`len(str(messages))` a second time) and appends the call's response and the messages up to the next
call. L1-L3 are the seed's code (seed_reference.py: it mutates the messages it is given, so each replay
starts from a fresh `json.loads`), L4 is the seed demo's fake summary (no LLM). It measures nothing but
the size per call: the project's replay measures far more (tokens, cache, cost, blind references), so
the anchor is what the slowest honest loop costs, not what ours does.
"""

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from seed_reference import micro_compact, snip_compact, tool_result_budget  # noqa: E402

CONTEXT_LIMIT = 50_000
KEEP_RECENT = 3
# Tune's default grid (dashboard/render/timeline.DEFAULT_AXES), written out: the anchor imports nothing
GRID_LIMITS = list(range(10_000, 100_001, 10_000))
GRID_KEEPS = list(range(1, 11))


def summarize_history(messages):
    """The seed demo's stand-in for the LLM call."""
    return ("Current goal: write the command line tool hello.py. 60 modules read, interfaces known. "
            "Remaining: the CLI entry point, argparse, unit tests. Constraints: Python 3, no third-party packages.")


def compact_history(messages):
    return [{"role": "user", "content": "[Compacted]\n\n" + summarize_history(messages)}]


def estimate_size(msgs):
    return len(str(msgs))


def micro_compact_keeping(messages, keep_recent: int):
    """The seed's micro_compact with its hard-coded 3 as KEEP_RECENT (a sweep moves it)."""
    if keep_recent == 3:
        return micro_compact(messages)
    results = [(m, b) for m in messages if m.get("role") == "user" and isinstance(m.get("content"), list)
               for b in m["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]
    if len(results) <= keep_recent:
        return messages
    for _, b in results[:len(results) - keep_recent]:
        if len(b.get("content", "")) > 120:
            b["content"] = "[Earlier tool result compacted. Re-run if needed.]"
    return messages


def agent_loop_replay(conversation: list, root: Path, context_limit: int = CONTEXT_LIMIT,
                      keep_recent: int = KEEP_RECENT) -> list[int]:
    """The size sent at each call of the conversation, the seed's way."""
    messages: list = []
    sent = []
    for message in conversation:
        if message.get("role") == "assistant" and messages:
            messages[:] = tool_result_budget(messages, root)
            messages[:] = snip_compact(messages)
            messages[:] = micro_compact_keeping(messages, keep_recent)
            if estimate_size(messages) > context_limit:
                messages[:] = compact_history(messages)
            sent.append(estimate_size(messages))  # what the call sends
        messages.append(message)
    return sent


def replay_file(path: Path, root: Path, context_limit: int = CONTEXT_LIMIT, keep_recent: int = KEEP_RECENT) -> list[int]:
    """From the bytes on disk: read, json.loads (a request body's "messages" or a list), replay."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    conversation = data["messages"] if isinstance(data, dict) else data
    return agent_loop_replay(conversation, root, context_limit, keep_recent)


def sweep_file(path: Path, root: Path, limits: list[int], keeps: list[int]) -> int:
    """Every cell of the grid, each a replay of its own from a fresh `json.loads` (the layers mutate)."""
    text = Path(path).read_text(encoding="utf-8")
    calls = 0
    for keep in keeps:
        for limit in limits:
            data = json.loads(text)
            conversation = data["messages"] if isinstance(data, dict) else data
            calls += len(agent_loop_replay(conversation, root, limit, keep))
    return calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--context-limit", type=int, default=CONTEXT_LIMIT)
    parser.add_argument("--keep-recent", type=int, default=KEEP_RECENT)
    parser.add_argument("--sweep", action="store_true", help="every cell of Tune's default 10 x 10 grid")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        started = time.perf_counter()
        if args.sweep:
            calls = sweep_file(args.file, Path(root), GRID_LIMITS, GRID_KEEPS)
            print(f"{len(GRID_LIMITS) * len(GRID_KEEPS)} cells, {calls:,} calls, {time.perf_counter() - started:.3f} s")
            return
        sent = replay_file(args.file, Path(root), args.context_limit, args.keep_recent)
        print(f"{len(sent):,} calls, peak {max(sent, default=0):,} characters, "
              f"{time.perf_counter() - started:.3f} s")


if __name__ == "__main__":
    main()
