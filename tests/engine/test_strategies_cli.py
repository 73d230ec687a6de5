"""`python -m compaction strategies`, and `replay|sweep --strategy NAME --param KEY=VALUE`: the listing,
the JSON, and clear errors (exit status 2) for an unknown strategy, parameter or value."""

import json
import math
import subprocess
import sys

import pytest

from compaction.cli.main import main
from compaction.model.markers import API_CLEARED
from compaction.strategies import REGISTRY

from .builders import turns
from .test_replay_cli import ROOT

CLEARED = len(repr("x" * 4000)) - len(repr(API_CLEARED))
NAMES = {"pipeline", "masking", "summary_keep_last", "claude-code", "anthropic-clear-tool-uses",
         "anthropic-clear-thinking", "anthropic-compact", "langchain-summarization", "langchain-clear-tool-uses",
         "openhands-masking", "openhands-recent", "openhands-llm", "openhands-amortized", "openhands-pipeline",
         "hybrid", "codex", "gemini-cli", "aider", "opencode", "copilot-cli", "pi", "as-recorded", "crush", "goose",
         "cline", "roo-code", "kilo-code"}


@pytest.fixture
def session_file(tmp_path):
    path = tmp_path / "session.json"
    path.write_text(json.dumps(turns(6, output_chars=4000)), encoding="utf-8")
    return path


def test_the_names_are_the_stable_ones():
    assert set(REGISTRY) == NAMES


def test_strategies_lists_every_strategy_with_its_parameters_and_defaults(capsys):
    assert main(["strategies"]) == 0
    out = capsys.readouterr().out
    for name, spec in REGISTRY.items():
        assert f"\n{name}: {spec.title}" in "\n" + out
        for param in spec.params:
            assert f"    {param.name} = " in out, (name, param.name)
    assert "buffer_tokens = 13,000 tokens" in out and "trigger = 100,000 tokens" in out
    assert "max_size = 240 messages" in out and 'placeholder = \'[cleared]\'' in out
    assert "known only from reverse engineering: The auto-compact threshold" in out


def test_strategies_json_and_one_strategy(capsys):
    assert main(["strategies", "--json"]) == 0
    listed = {s["name"]: s for s in json.loads(capsys.readouterr().out)["strategies"]}
    assert set(listed) == NAMES
    clear = {p["name"]: p for p in listed["anthropic-clear-tool-uses"]["parameters"]}
    assert clear["trigger"] == {"name": "trigger", "default": 100_000, "type": "int", "unit": "tokens",
                                "minimum": 1, "maximum": 10_000_000,
                                "help": "Clearing starts once the request's input exceeds this."}
    assert clear["exclude_tools"]["default"] == [] and clear["clear_tool_inputs"]["default"] is False
    assert listed["anthropic-compact"]["sources"][0]["url"].startswith("https://platform.claude.com/")
    assert main(["strategies", "hybrid"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("hybrid: ") and "claude-code" not in out


def test_replay_any_strategy_with_parameters_reports_each_calls_edits(session_file, capsys):
    assert main(["replay", str(session_file), "--strategy", "anthropic-clear-tool-uses", "--param", "trigger=1_000",
                 "--param", "keep=2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["strategy"]["name"] == "anthropic-clear-tool-uses"
    assert data["strategy"]["parameters"] == {"trigger": 1000, "keep": 2, "clear_at_least": 0, "exclude_tools": [],
                                              "clear_tool_inputs": False}
    assert data["totals"]["strategy"] == "anthropic-clear-tool-uses"
    assert [c["applied_edits"] for c in data["calls"]] == [[]] * 3 + [
        [{"type": "clear_tool_uses_20250919", "cleared_tool_uses": k - 2,
          "cleared_input_tokens": math.ceil((k - 2) * CLEARED / 4)}] for k in range(3, 6)]


@pytest.mark.parametrize(("flags", "message"), [
    (["--strategy", "forget-everything"], "unknown strategy 'forget-everything'; choose one of pipeline, masking"),
    (["--strategy", "hybrid", "--param", "window=3"], "hybrid has no parameter 'window'; its parameters are "
                                                      "mask_window, summarize_every, keep_last_turns, keep_first"),
    (["--strategy", "anthropic-clear-tool-uses", "--param", "trigger=lots"],
     "anthropic-clear-tool-uses: trigger must be a whole number of tokens, 1 to 10,000,000, got 'lots'"),
    (["--strategy", "anthropic-clear-tool-uses", "--param", "trigger=0"],
     "anthropic-clear-tool-uses: trigger must be a whole number of tokens, 1 to 10,000,000, got 0"),
    (["--strategy", "claude-code", "--param", "microcompact=maybe"],
     "claude-code: microcompact must be true or false, got 'maybe'"),
    (["--strategy", "openhands-llm", "--param", "max_size"], "--param must look like KEY=VALUE"),
    (["--strategy", "openhands-llm", "--param", "keep_first=200"],
     "openhands-llm: keep_first must be less than max_size // 2"),
])
def test_bad_strategy_flags_exit_2_with_a_clear_message(session_file, capsys, flags, message):
    assert main(["replay", str(session_file), *flags]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("compaction: error: ") and message in captured.err
    assert captured.out == ""


def test_sweep_any_strategy(session_file, capsys):
    assert main(["sweep", str(session_file), "--x", "context_limit=1000,5000", "--y", "keep_recent=1,3",
                 "--strategy", "openhands-masking", "--param", "attention_window=4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["strategy"] == "openhands-masking"
    assert data["replays"] == 1  # it reads neither setting: one replay answers every cell
    assert len({json.dumps(cell) for row in data["cells"] for cell in row}) == 1


def test_python_dash_m_strategies():
    done = subprocess.run([sys.executable, "-m", "compaction", "strategies", "--json"], capture_output=True,
                          text=True, cwd=ROOT, check=True)
    assert {s["name"] for s in json.loads(done.stdout)["strategies"]} == NAMES


def test_docs_strategies_md_is_the_registry_written_out(capsys):
    assert main(["strategies", "--markdown"]) == 0
    written = capsys.readouterr().out
    assert (ROOT / "docs" / "strategies.md").read_text(encoding="utf-8") == written, \
        "docs/strategies.md is stale: python -m compaction strategies --markdown > docs/strategies.md"
    for name, spec in REGISTRY.items():
        assert f"## {spec.title} (`{name}`)" in written
        for source in spec.sources:
            assert source.label in written
    # every preset read from public source or reverse engineering says so in its section
    assert written.count("Known only from public reverse engineering") == sum(1 for s in REGISTRY.values() if s.reverse_engineered)
