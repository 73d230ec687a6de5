"""The large hostile inputs, written at test time (never committed): `write_big_corpus(folder)`.

Each case is (file name, writer, expectation) with the same expectation keys as corpus/expected.json.
Run as a script to write them into a folder: `python tests/hostile/big_corpus.py /tmp/big`.
"""

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

from compaction.importers.limits import MAX_MESSAGES

MB = 1024 * 1024
HUGE_STRING = 100 * MB
TINY_MESSAGES = 50_000
JSONL_LINES = 5_000
BROKEN_LINE = 3_217
DEEP = 100_000


def _write(path: Path, *parts: str | bytes) -> None:
    with open(path, "wb") as handle:
        for part in parts:
            handle.write(part.encode() if isinstance(part, str) else part)


def huge_string(path: Path) -> None:
    """One 100 MB tool output: L3 must persist it and keep a preview."""
    head = json.dumps([{"role": "user", "content": "dump it"},
                       {"role": "assistant", "content": [{"type": "tool_use", "id": "big", "name": "bash",
                                                          "input": {"command": "cat dump"}}]}])[:-1]
    _write(path, head, ', {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "big", "content": "',
           b"z" * HUGE_STRING, '"}]}]')


def claimed_1gb(path: Path) -> None:
    """A sparse file whose size claims 1 GB: refused from its size, before a byte is read."""
    with open(path, "wb") as handle:
        handle.write(b'[{"role": "user", "content": "')
        handle.truncate(1024 * MB)


def deep_list(path: Path) -> None:
    _write(path, b"[" * DEEP, b"]" * DEEP)


def deep_tool_input(path: Path) -> None:
    """A well-formed conversation whose tool input nests 100,000 levels."""
    _write(path, '[{"role": "assistant", "content": [{"type": "tool_use", "id": "d", "name": "x", "input": ',
           b'{"a": ' * DEEP, b"1", b"}" * DEEP, "}]}]")


def deep_jsonl_line(path: Path) -> None:
    _write(path, json.dumps({"role": "user", "content": "hi"}) + "\n", b'{"a": ' * DEEP, b"1", b"}" * DEEP, b"\n")


def tiny_messages(path: Path) -> None:
    messages = [{"role": "user" if i % 2 == 0 else "assistant", "content": "k"} for i in range(TINY_MESSAGES)]
    _write(path, json.dumps(messages))


def jsonl_one_broken_line(path: Path) -> None:
    lines = [json.dumps({"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i}"})
             for i in range(JSONL_LINES)]
    lines[BROKEN_LINE - 1] = lines[BROKEN_LINE - 1][:-7]  # cut mid-string
    _write(path, "\n".join(lines) + "\n")


def tiny_blocks(path: Path) -> None:
    """6 million empty text blocks in 150 MB: under the size bound, over the JSON-value bound."""
    _write(path, '[{"role": "user", "content": [', ",".join(['{"type":"text","text":""}'] * 6_000_000), "]}]")


def blocks_at_the_value_bound(path: Path) -> None:
    """1.65 million empty text blocks in one message (~4.95 million counted values, 43 MB): the most
    fragmented input the loader accepts, so its peak memory is the bound docs/limits.md states."""
    _write(path, '[{"role": "user", "content": [', ",".join(['{"type":"text","text":""}'] * 1_650_000), "]}]")


def too_many_messages(path: Path) -> None:
    messages = [{"role": "user" if i % 2 == 0 else "assistant", "content": ""} for i in range(MAX_MESSAGES + 1)]
    _write(path, json.dumps(messages))


# name -> (writer, expectation)
BIG_CASES: dict[str, tuple[Callable[[Path], None], dict]] = {
    "huge_string_100mb.json": (huge_string, {"outcome": "ok", "persisted": 1}),
    "claimed_1gb.json": (claimed_1gb, {"outcome": "error", "words": ["1,024 MB", "above the maximum"]}),
    "nesting_100000.json": (deep_list, {"outcome": "error", "words": ["nested deeper", "100 levels"]}),
    "nesting_100000_in_tool_input.json": (deep_tool_input, {"outcome": "error", "words": ["nested deeper"]}),
    "nesting_100000_in_jsonl.jsonl": (deep_jsonl_line, {"outcome": "error", "words": ["line 2", "nested deeper"]}),
    "tiny_messages_50000.json": (tiny_messages, {"outcome": "ok", "messages": TINY_MESSAGES}),
    "jsonl_one_broken_line_of_5000.jsonl": (jsonl_one_broken_line, {
        "outcome": "ok", "messages": JSONL_LINES - 1, "warnings": [f"line {BROKEN_LINE} (not valid JSON"]}),
    "tiny_blocks_6_million.json": (tiny_blocks, {"outcome": "error", "words": ["JSON values", "maximum"]}),
    "tiny_blocks_at_the_value_bound.json": (blocks_at_the_value_bound, {"outcome": "ok", "messages": 1}),
    "messages_100001.json": (too_many_messages, {"outcome": "error", "words": ["100,001 messages", "100,000"]}),
}


def write_big_corpus(folder: Path, names: list[str] | None = None) -> dict[str, dict]:
    """Write the big cases (all, or `names`) into `folder`; return name -> expectation."""
    folder.mkdir(parents=True, exist_ok=True)
    written = {}
    for name, (writer, expectation) in BIG_CASES.items():
        if names is None or name in names:
            path = folder / name
            if not path.exists():
                writer(path)
            written[name] = expectation
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "big-corpus")
    for name in write_big_corpus(target):
        print(f"{os.path.getsize(target / name):>14,}  {target / name}")
