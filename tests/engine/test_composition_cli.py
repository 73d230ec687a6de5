"""`compaction composition FILE`: the JSON's shape, the kinds of a real layout summing to what its log
recorded for the call (within 5 %, with results by tool), a strategy applied as `replay` applies it, the
text table, and bad flags refused by name."""

import json
from pathlib import Path

import pytest

from compaction.cli import main as cli
from compaction.generate import generate
from compaction.measures import KINDS
from compaction.model.calibration import recorded_context

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "importers" / "cases" / "valid"
HOOKS = CASES / "claude_code_hook_progress_after_the_turn.jsonl"  # 6 calls with usage, 4 tools
COMPACTED = ROOT / "sample_data" / "claude_code_session.jsonl"  # a compact_boundary at message 23


def run(capsys, *argv) -> dict:
    assert cli.main(["composition", *map(str, argv), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def recorded_at(path: Path, message: int) -> int:
    from compaction.importers import load_conversation

    return recorded_context(load_conversation(path).usage[message])


def test_the_last_call_of_a_real_layout_sums_to_its_recorded_context_with_results_by_tool(capsys):
    data = run(capsys, HOOKS)
    assert {"kinds", "tool_results_by_tool", "call", "calls", "total_tokens", "recorded_context_tokens",
            "estimated_tokens", "strategy", "input", "answers_message"} <= set(data)
    assert list(data["kinds"]) == list(KINDS) and all(isinstance(v, int) for v in data["kinds"].values())
    assert data["call"] == data["calls"] == 6  # numbered from 1, as the pages number them
    recorded = data["recorded_context_tokens"]
    assert recorded == recorded_at(HOOKS, data["answers_message"])
    assert abs(sum(data["kinds"].values()) - recorded) <= 0.05 * recorded
    assert sum(data["kinds"].values()) == data["total_tokens"]
    assert set(data["tool_results_by_tool"]) == {"Glob", "Read", "Edit", "Bash"}
    assert sum(data["tool_results_by_tool"].values()) == data["kinds"]["tool_results"] > 0
    assert data["kinds"]["system_and_tools"] > data["kinds"]["tool_results"]  # the calibrated overhead
    assert data["strategy"]["name"] == "none" and data["exact_tokens"] is True


def test_every_call_and_the_one_after_the_agents_compaction(capsys):
    calls = run(capsys, COMPACTED)["calls"]
    for call in range(1, calls + 1):
        data = run(capsys, COMPACTED, "--call", call)
        recorded = data["recorded_context_tokens"]
        assert abs(data["total_tokens"] - recorded) <= 0.05 * recorded, call
    after = next(c for c in range(1, calls + 1) if run(capsys, COMPACTED, "--call", c)["answers_message"] > 23)
    data = run(capsys, COMPACTED, "--call", after)
    assert data["kinds"]["summaries"] > 0 and data["messages_sent"] < 23  # the summary and what followed it
    assert run(capsys, COMPACTED, "--call", -calls)["call"] == 1


def test_a_strategy_is_applied_as_replay_applies_it(capsys, tmp_path):
    path = tmp_path / "session.json"
    path.write_text(json.dumps(generate("realistic", turns=40, seed=2)), encoding="utf-8")
    found = run(capsys, path, "--strategy", "pipeline", "--param", "keep_recent=0", "--call", 31)
    assert cli.main(["replay", str(path), "--strategy", "pipeline", "--param", "keep_recent=0", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)["calls"][30]
    assert found["call"] == record["call"] == 31  # one numbering: the CLI, the JSON and the pages
    assert found["total_tokens"] == record["tokens"] == sum(found["kinds"].values())
    assert found["kinds"]["placeholders"] > 0
    assert found["recorded_context_tokens"] is None  # a generated session records no usage
    none = run(capsys, path, "--call", 31)
    assert none["kinds"]["placeholders"] == 0 and none["total_tokens"] > found["total_tokens"]


def test_the_table(capsys):
    assert cli.main(["composition", str(HOOKS), "--call", "2"]) == 0
    out = capsys.readouterr().out
    assert "call 2 of 6 (" in out and "strategy none: what the log sent" in out
    for words in ("system prompt and tools", "tool results", "  Glob", "not in the log", "total"):
        assert words in out
    assert "tokens as the log recorded them" in out


@pytest.mark.parametrize(("argv", "words"), [
    (["--call", "7"], "has calls 1 to 6"),
    (["--call", "0"], "has calls 1 to 6"),
    (["--strategy", "none", "--param", "keep_recent=1"], "--strategy none takes no --param"),
    (["--strategy", "nope"], "unknown strategy 'nope'"),
    (["--strategy", "pipeline", "--param", "keep_recent=x"], "keep_recent"),
])
def test_bad_flags_are_refused_by_name(capsys, argv, words):
    assert cli.main(["composition", str(HOOKS), *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_a_file_without_a_model_call(capsys, tmp_path):
    path = tmp_path / "question.json"
    path.write_text(json.dumps([{"role": "user", "content": "hello"}]), encoding="utf-8")
    assert cli.main(["composition", str(path)]) == 2
    assert "no model call" in capsys.readouterr().err
