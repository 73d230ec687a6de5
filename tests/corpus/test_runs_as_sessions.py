"""An evaluation output of several runs is one session per run in a corpus: a SessionFile each (its
path and the run's key travel, never the contents), a row each named by its instance, the same over
processes and from the command line; a file changed since it was listed gives that run's row an error."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from compaction.corpus import Job, analyse, discover

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "importers" / "cases" / "valid"
OUTPUT = "eval/claude-sonnet-4_maxiter_100/output.jsonl"
INSTANCES = ["textkit__textkit-17", "dates__dates-4", "pkg__pkg-2"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("runs-corpus")
    (root / OUTPUT).parent.mkdir(parents=True)
    shutil.copy(CASES / "openhands_output_metrics.jsonl", root / OUTPUT)
    shutil.copy(CASES / "gemini_stream_stats.jsonl", root / "headless-run.jsonl")
    return root


@pytest.fixture(scope="module")
def in_process(folder):
    return analyse(discover(folder))


def test_each_run_is_a_session_file_of_its_own(folder):
    files = discover(folder)
    assert [(item.relative, item.run.name if item.run else None) for item in files] == [
        *((OUTPUT, name) for name in INSTANCES), ("headless-run.jsonl", None)]
    assert [item.name for item in files][:2] == [f"{OUTPUT} [textkit__textkit-17]", f"{OUTPUT} [dates__dates-4]"]


def test_each_run_is_a_row_named_by_its_instance(in_process):
    rows = in_process.rows
    assert in_process.sessions == 4 and not in_process.cancelled
    assert [(row["path"], row["run_line"], row["session"]) for row in rows[:3]] == [
        (OUTPUT, line, name) for line, name in enumerate(INSTANCES, start=1)]
    assert all(row["error"] is None and row["format"] == "openhands" for row in rows[:3])
    assert [row["model_calls"] for row in rows[:3]] == [2, 1, 1]
    assert rows[0]["recorded_from_totals"] is False and rows[0]["recorded_cost_usd"] > 0
    # the stream run gives only its totals: its recorded cost and tokens are theirs, and the row says so
    stream = rows[3]
    assert stream["run_line"] is None and stream["recorded_from_totals"] is True
    assert stream["recorded_tokens"] == 46_870 and stream["recorded_peak_tokens"] is None
    assert stream["recorded_cost_usd"] == pytest.approx(0.055857)


def test_two_processes_give_the_same_rows(folder, in_process):
    assert analyse(discover(folder), workers=2).rows == in_process.rows


def test_the_command_line_lists_every_run(folder, in_process):
    done = subprocess.run([sys.executable, "-m", "compaction", "corpus", str(folder), "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["sessions"] == in_process.rows
    table = subprocess.run([sys.executable, "-m", "compaction", "corpus", str(folder)], cwd=ROOT,
                           capture_output=True, text=True, timeout=300).stdout
    assert f"{OUTPUT} [dates__dates-4]" in table and "4 sessions, 0 could not be read" in table


def test_a_run_gone_from_its_file_since_listing_is_its_rows_error(tmp_path):
    output = tmp_path / "output.jsonl"
    shutil.copy(CASES / "openhands_output_metrics.jsonl", output)
    files = discover(tmp_path)
    lines = output.read_text().splitlines()
    output.write_text(lines[0] + "\n" + lines[2] + "\n")
    rows = analyse(files, Job()).rows
    assert [row["error"] is None for row in rows] == [True, False, False]
    assert rows[1]["error"] == ("output.jsonl [dates__dates-4]: line 2 no longer holds run dates__dates-4 (the file "
                                "changed since its runs were listed): read the folder again")


def test_a_runs_error_names_the_run(tmp_path):
    row = {"instance_id": "ProntoQA_1", "history": [[{"action": "message"}, {"observation": "null"}]]}
    (tmp_path / "output.jsonl").write_text(json.dumps(row) + "\n" + json.dumps({**row, "instance_id": "P_2"}) + "\n")
    rows = analyse(discover(tmp_path)).rows
    assert rows[0]["error"] == ("output.jsonl [ProntoQA_1]: line 1 (run ProntoQA_1): no format here reads its "
                                "'history' (its first event is a list)")
