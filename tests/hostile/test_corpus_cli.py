"""Every bad input through `python -m compaction run`: exit 0 with a valid report, or exit 2 and one line
naming the problem; never a traceback, a hang (time limit) or memory above the documented bound."""

import json

import pytest

from .big_corpus import BIG_CASES
from .corpus import EXPECTED, MAX_RSS_BYTES, run_cli

NAMES = sorted(EXPECTED) + sorted(BIG_CASES)


def test_the_corpus_covers_every_case_of_the_issue():
    assert len(EXPECTED) >= 30
    kinds = ["not_json", "truncated", "binary", "empty.json", "empty_list", "scalar_", "list_of_non_objects",
             "message_without_role", "unknown_role", "content_", "tool_result_answering_nothing",
             "tool_use_never_answered", "duplicate_tool_use_ids", "id_dotdot", "id_absolute", "id_nul",
             "id_10000_chars", "invalid_utf8"]
    big = ["nesting_100000", "claimed_1gb", "jsonl_one_broken_line_of_5000", "huge_string_100mb",
           "tiny_messages_50000"]
    for kind in kinds + big:
        assert any(kind in name for name in NAMES), kind
    for expectation in [*EXPECTED.values(), *(e for _, e in BIG_CASES.values())]:
        assert expectation["outcome"] in ("ok", "error")
        assert expectation["outcome"] == "ok" or expectation["words"]


@pytest.mark.parametrize("name", NAMES)
def test_cli(name, corpus_file, tmp_path):
    path, expectation = corpus_file(name)
    store = tmp_path / "store"
    done = run_cli(path, "--json", "--store", str(store), *expectation.get("args", []), out_dir=tmp_path / "run")
    assert "Traceback" not in done.stderr + done.stdout[:10_000], done.stderr[-2000:]
    assert done.max_rss <= MAX_RSS_BYTES, f"peak memory {done.max_rss / 2**20:.0f} MB"
    if expectation["outcome"] == "error":
        assert done.status == 2, done.stderr
        assert done.stdout == ""
        lines = done.stderr.splitlines()
        assert len(lines) == 1, done.stderr
        assert lines[0].startswith("compaction: error: ") and path.name in lines[0]
        for word in expectation["words"]:
            assert word in lines[0]
        return
    assert done.status == 0, done.stderr
    report = json.loads(done.stdout)
    assert [stage["layer"] for stage in report["stages"]] == ["input", "L3", "L1", "L2", "L4"]
    if "messages" in expectation:
        assert report["input"]["messages"] == expectation["messages"]
    warnings = " | ".join(report["input"]["warnings"])
    for word in expectation.get("warnings", []):
        assert word in warnings
    if "persisted" in expectation or expectation.get("args"):
        assert len(report["persisted"]) == expectation.get("persisted", len(report["persisted"])) > 0
    results = store / "tool-results"
    for persisted in report["persisted"]:
        written = results / persisted["path"].rsplit("/", 1)[-1]
        assert written.is_file() and written.resolve().parent == results.resolve()
    # nothing the input names escapes the store or lands beside it
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == ["stderr", "stdout"]
    assert all(store.resolve() in p.resolve().parents for p in store.rglob("*"))
