"""From the bytes on disk to the first result, against the tutorial's own path on the same file.

    .venv/bin/python benchmarks/bench_bytes_to_result.py [--sizes 1,10,70] [--repeat 3]

Ours: `load_conversation(path)` + `prepare` + `run_pipeline` (default settings, offline summariser),
from a file on disk. The tutorial's path: read the file, `json.loads` it (for JSONL: each line, keeping
the `message` of user and assistant lines, which is all it could do with a Claude Code log) and run
its layers with the size after each (benchmarks/seed_reference.py). Two formats at each size: an
Anthropic messages file shaped like the tutorial's demo (read_file turns and one huge output) and a
Claude Code JSONL log in the real layout. Reports seconds, our time / the tutorial's, and ms per MB.
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_loaders import claude_code_file  # noqa: E402
from bench_pipeline import best, scaled_seed  # noqa: E402
from seed_reference import run_seed_layers  # noqa: E402

from compaction import OutputStore, prepare, run_pipeline  # noqa: E402
from compaction.importers import load_conversation  # noqa: E402


def seed_shaped(megabytes: float) -> list[dict]:
    """The tutorial demo's shape at `megabytes`: read_file turns and one huge last output. Turns stop at
    48,000 (the shape of the 67 MB file measured before, within the loader's 100,000-message bound);
    beyond that each read returns a longer file."""
    messages = scaled_seed(megabytes)
    turns = (len(messages) - 3) // 2
    if turns <= 48_000:
        return messages
    repeat = round(25 * turns / 48_000)
    shaped = [messages[0]]
    for i in range(48_000):
        shaped.append({"role": "assistant", "content": [
            {"type": "tool_use", "id": f"t{i}", "name": "read_file", "input": {"path": f"src/module{i}.py"}}]})
        shaped.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"t{i}", "content": f"def func_{i}():\n    return {i}\n" * repeat}]})
    return shaped + messages[-2:]


def tutorial_path(path: Path, jsonl: bool, store: Path) -> None:
    text = path.read_text(encoding="utf-8")
    if jsonl:
        lines = (json.loads(line) for line in text.splitlines() if line.strip())
        messages = [line["message"] for line in lines if line.get("type") in ("user", "assistant")]
    else:
        messages = json.loads(text)
    run_seed_layers(messages, store)


def our_path(path: Path, store: OutputStore) -> None:
    run_pipeline(prepare(load_conversation(path)), store=store)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1,10,70", help="megabytes, comma separated")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'format':<22}{'MB':>7}{'tutorial s':>12}{'ours s':>9}{'ours/tut':>10}{'ours ms/MB':>12}")
    with tempfile.TemporaryDirectory() as root:
        root = Path(root)
        for size in (float(s) for s in args.sizes.split(",")):
            files = {
                "Anthropic JSON": (root / f"seed-{size:g}.json", json.dumps(seed_shaped(size)).encode(), False),
                "Claude Code JSONL": (root / f"session-{size:g}.jsonl", claude_code_file(size), True),
            }
            for name, (path, data, jsonl) in files.items():
                path.write_bytes(data)
                megabytes = len(data) / 1e6
                tutorial = best(lambda p=path, j=jsonl: tutorial_path(p, j, root / "tutorial"), args.repeat)
                store = OutputStore(root / "ours")
                ours = best(lambda p=path, s=store: our_path(p, s), args.repeat)
                print(f"{name:<22}{megabytes:>7.1f}{tutorial:>12.3f}{ours:>9.3f}{ours / tutorial:>10.2f}"
                      f"{ours * 1e3 / megabytes:>12.1f}", flush=True)
                path.unlink()


if __name__ == "__main__":
    main()
