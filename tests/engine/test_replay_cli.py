"""`python -m compaction replay|sweep`: JSON keys, the table, clear errors with exit status 2."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from compaction.cli import main as cli
from compaction.cli.common import parse_axis
from compaction.errors import SettingsError
from compaction.generate import generate
from compaction.measures.registry import measure_text

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def main():
    return cli.main


@pytest.fixture
def session_file(tmp_path):
    path = tmp_path / "session.json"
    path.write_text(json.dumps(generate("realistic", turns=40, seed=2)), encoding="utf-8")
    return path


def test_replay_json(main, session_file, capsys):
    assert main(["replay", str(session_file), "--context-limit", "8000", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"calls", "totals"}
    messages = json.loads(session_file.read_text())
    assert [c["index"] for c in data["calls"]] == [i for i, m in enumerate(messages) if m["role"] == "assistant"]
    assert set(data["calls"][0]) == {"call", "index", "messages", "chars", "tokens", "raw_chars", "raw_tokens",
                                     "acted", "summaries", "tokens_total", "raw_tokens_total", "over_window",
                                     "applied_edits", "estimated_tokens", "raw_runs", "recorded", "exact_tokens",
                                     "cache_read_tokens", "cache_write_tokens", "cache_broken", "output_tokens",
                                     "cost_usd", "cost_usd_no_cache", "compaction_cost_usd", "blind_references",
                                     "blind_terms"}
    assert data["calls"][0]["recorded"] is None  # an Anthropic messages file records no usage
    assert data["calls"][0]["applied_edits"] == []  # the pipeline edits no request on its own
    assert {"calls", "summaries", "reactive", "tokens_sent", "raw_tokens_sent", "peak_tokens", "calibration",
            "recorded_context_tokens", "cache_read_tokens", "cache_write_tokens", "cost_usd", "cost_usd_no_cache",
            "blind_references", "artifact_retention"} <= set(data["totals"])
    assert data["totals"]["calibration"] is None and data["totals"]["recorded_context_tokens"] is None
    assert data["totals"]["summaries"] > 0
    assert data["settings"]["context_limit"] == 8000


def test_replay_table_and_options(main, session_file, capsys, tmp_path):
    store = tmp_path / "store"
    assert main(["replay", str(session_file), "--strategy", "masking", "--model-window", "2000",
                 "--store", str(store)]) == 0
    out = capsys.readouterr().out
    assert "strategy masking" in out and "reactive" in out and "tokens sent" in out
    assert list((store / "transcripts").glob("*.jsonl"))  # the reactive compactions' transcripts


def test_replay_says_when_the_model_window_compacted_whatever_the_settings(main, session_file, capsys):
    off = ["--context-limit", "100000000", "--keep-recent", "100000", "--max-messages", "1000000"]
    assert main(["replay", str(session_file), *off, "--model-window", "2000"]) == 0  # far below the 40 turns
    out = capsys.readouterr().out
    assert "the model window (2,000 tokens) was reached: reactive compaction ran" in out
    assert "--model-window sets the window" in out
    assert main(["replay", str(session_file), *off, "--model-window", "10000000"]) == 0
    assert "was reached" not in capsys.readouterr().out


def test_sweep_json(main, session_file, capsys):
    assert main(["sweep", str(session_file), "--x", "context_limit=5000,20000,100000", "--y", "keep-recent=1,3",
                 "--measure", "summaries", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["x"] == {"name": "context_limit", "values": [5000, 20000, 100000], "kind": "setting"}
    assert data["y"] == {"name": "keep_recent", "values": [1, 3], "kind": "setting"}
    assert data["measure"] == "summaries"
    assert len(data["grid"]) == 2 and len(data["grid"][0]) == 3
    assert data["grid"][0][0] == data["cells"][0][0]["summaries"] >= data["grid"][0][2]


def test_sweep_table(main, session_file, capsys):
    assert main(["sweep", str(session_file), "--x", "context_limit=5_000,50_000", "--y", "keep_recent=2",
                 "--measure", "tool_output_kept"]) == 0
    out = capsys.readouterr().out
    assert "keep_recent \\ context_limit" in out and "%" in out


def test_sweep_table_writes_each_measure_in_its_unit(main, session_file, capsys):
    assert main(["sweep", str(session_file), "--x", "context_limit=5_000", "--y", "keep_recent=2",
                 "--measure", "cost_usd", "--json"]) == 0
    cost = json.loads(capsys.readouterr().out)["grid"][0][0]
    assert main(["sweep", str(session_file), "--x", "context_limit=5_000", "--y", "keep_recent=2",
                 "--measure", "cost_usd"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split() == ["2", f"${cost:,.2f}"]  # dollars, not a share


def test_measure_text():
    assert measure_text(0.163, "cost_usd") == "$0.16"
    assert measure_text(0.4166, "cache_hit_rate") == "41.7%"
    assert measure_text(0.4166, "artifact_retention", share_digits=0) == "42%"
    assert measure_text(12_345, "tokens_sent") == "12,345"
    assert measure_text(12.0, "blind_references") == "12"  # a median of counts
    assert measure_text(12.5, "blind_references") == "12.5"
    assert measure_text(None, "cost_usd") == "-"


@pytest.mark.parametrize(("axis", "message"), [
    ("context_limit=20000,abc", "whole numbers"),
    ("context_limit", "NAME=V1,V2"),
    ("speed=1,2", "unknown setting 'speed'"),
    ("context_limit=0", "context_limit must be between"),
])
def test_sweep_bad_values_exit_2(main, session_file, capsys, axis, message):
    assert main(["sweep", str(session_file), "--x", axis, "--y", "keep_recent=1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("compaction: error:") and message in err


def test_sweep_refuses_the_claude_summariser(main, session_file, capsys):
    assert main(["sweep", str(session_file), "--x", "context_limit=1000", "--y", "keep_recent=1",
                 "--summarizer", "claude"]) == 2
    assert "offline summariser" in capsys.readouterr().err


def test_replay_bad_window_exit_2(main, session_file, capsys):
    assert main(["replay", str(session_file), "--model-window", "0"]) == 2
    assert "model window" in capsys.readouterr().err


def test_parse_axis():
    assert parse_axis("context-limit = 1_000, 20000", "--x") == ("context_limit", [1000, 20000])
    with pytest.raises(SettingsError):
        parse_axis("keep_recent=-1", "--y")


def test_python_dash_m(session_file):
    done = subprocess.run([sys.executable, "-m", "compaction", "replay", str(session_file), "--json"],
                          capture_output=True, text=True, cwd=ROOT, check=True)
    assert set(json.loads(done.stdout)) >= {"calls", "totals"}


def swept(session_file, workers: int, *strategy: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "compaction", "sweep", str(session_file), "--x",
                           "context_limit=3000,10000,40000", "--y", "keep_recent=0,2,5", "--workers", str(workers),
                           *strategy, "--json"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0 and done.stderr == "", done.stderr[-2000:]
    return json.loads(done.stdout)


def test_sweep_on_forked_workers_gives_the_cells_of_one_process(session_file):
    # its own process, as a person runs it: the command forks its workers (nothing else runs there); a
    # strategy the columnar kernel does not cover, whose lines the workers replay
    one, two = swept(session_file, 1, "--strategy", "masking"), swept(session_file, 2, "--strategy", "masking")
    # each worker's first line starts with one cell of its own: at most a replay more per worker
    assert one["replays"] >= 1 and one["replays"] <= two.pop("replays") <= one.pop("replays") + 2
    assert two == one
    assert one["by_kernel"] == 0 and {why for _, _, why in one["left_to_loop"]} == {"the strategy has no columnar form"}


def test_the_pipelines_sweep_is_the_kernels_with_or_without_workers(session_file):
    one = swept(session_file, 1)
    assert one["by_kernel"] == 9 and one["replays"] == 0 and one["left_to_loop"] == []
    assert swept(session_file, 2) == one
