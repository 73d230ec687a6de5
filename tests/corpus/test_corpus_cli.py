"""`python -m compaction corpus`: rows and the sweep aggregate as JSON, a table, a .zip, clear errors."""

import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from compaction.corpus import Job, analyse, discover

from .conftest import CORRUPT_NAME

ROOT = Path(__file__).resolve().parents[2]
SWEEP_ARGS = ("--sweep", "context_limit=5000,50000", "keep_recent=0,3")


def cli(*args):
    return subprocess.run([sys.executable, "-m", "compaction", "corpus", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def swept(small_corpus):
    done = cli(small_corpus, "--json", "--workers", "2", *SWEEP_ARGS)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_json_has_a_row_per_session_and_the_sweep(small_corpus, swept):
    expected = analyse(discover(small_corpus), Job(x=("context_limit", (5000, 50000)), y=("keep_recent", (0, 3))))
    assert swept["sessions"] == expected.rows and swept["sweep"] == expected.sweep
    assert swept["cancelled"] is False
    [corrupt] = [row for row in swept["sessions"] if row["error"]]
    assert corrupt["path"] == CORRUPT_NAME and "not valid JSON" in corrupt["error"]


def test_settings_flags_reach_every_row(small_corpus):
    done = cli(small_corpus, "--json", "--context-limit", "2000", "--keep-recent", "0")
    defaults = cli(small_corpus, "--json")
    rows = {row["path"]: row for row in json.loads(done.stdout)["sessions"]}
    default_rows = {row["path"]: row for row in json.loads(defaults.stdout)["sessions"]}
    assert "sweep" not in json.loads(done.stdout)
    readable = [path for path, row in rows.items() if not row["error"]]
    assert sum(rows[path]["summaries"] for path in readable) > sum(default_rows[path]["summaries"] for path in readable)


def test_table_lists_sessions_errors_and_the_grid(small_corpus):
    done = cli(small_corpus, *SWEEP_ARGS, "--measure", "peak_tokens")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.strip().startswith(CORRUPT_NAME) and "ERROR" in line for line in lines)
    assert "7 sessions, 1 could not be read" in done.stdout
    assert "Largest context sent (estimated tokens): median / 90th percentile over 6 sessions" in done.stdout
    assert "keep_recent \\ context_limit" in done.stdout


def test_the_grid_writes_shares_in_percent_and_costs_in_dollars(small_corpus, swept):
    for measure, unit in (("cache_hit_rate", "%"), ("cost_usd", "$")):
        done = cli(small_corpus, *SWEEP_ARGS, "--measure", measure)
        assert done.returncode == 0, done.stderr
        grid = done.stdout[done.stdout.index("median / 90th percentile"):].splitlines()[2:]
        cells = [pair for line in grid for pair in re.findall(r"(\S+) / (\S+)", line)]
        assert len(cells) == 4 and all(unit in part for pair in cells for part in pair), cells


def test_a_zip_is_read_like_a_folder(small_corpus, tmp_path, swept):
    archive = tmp_path / "sessions.zip"
    with zipfile.ZipFile(archive, "w") as opened:
        for path in sorted(small_corpus.rglob("*")):
            if path.is_file():
                opened.write(path, path.relative_to(small_corpus).as_posix())
    done = cli(archive, "--json", *SWEEP_ARGS)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["sessions"] == swept["sessions"]
    assert data["sweep"] == swept["sweep"]


@pytest.mark.parametrize(("args", "message"), [
    (("--sweep", "window=1,2", "keep_recent=1"), "--sweep X: unknown setting 'window'"),
    (("--sweep", "keep_recent=1", "keep_recent=2"), "x and y must be two different settings"),
    (("--workers", "0"), "workers must be a whole number of at least 1, got 0"),
])
def test_bad_arguments_stop_with_one_line(small_corpus, args, message):
    done = cli(small_corpus, *args)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_a_missing_folder_is_named(tmp_path):
    done = cli(tmp_path / "nowhere")
    assert done.returncode == 2 and f"{tmp_path / 'nowhere'}: no such folder" in done.stderr


def test_format_calls_and_recorded_cost_of_every_row_and_subagents_under_their_session():
    from .test_subagents import MIXED, SHOP, SHOP_AGENT_COST, SHOP_COST

    done = cli(MIXED)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split()[:6] == ["format", "messages", "calls", "recorded", "$", "cost"]
    [session] = [line for line in lines if line.endswith(f"-home-dev-shop/{SHOP}.jsonl")]
    following = lines[lines.index(session) + 1]
    assert session.startswith("Claude Code") and f"${SHOP_COST:,.4f}" in session
    assert following.endswith(f"  `-- claude/projects/-home-dev-shop/{SHOP}/subagents/agent-a3f9c1d2e4b5a6978.jsonl")
    assert following.split()[2:4] == ["6", "3"] and f"${SHOP_AGENT_COST:,.4f}" in following
    assert any(line.startswith("Codex CLI") for line in lines) and any(line.startswith("Gemini CLI") for line in lines)
    assert any("(a subagent of session 0a1b2c3d-4e5f-4061-8273-948a5b6c7d8e, which is not in this folder)" in line
               for line in lines)
    assert lines[-1].startswith("8 sessions, 0 could not be read; 4 of them subagents; recorded cost $0.2")

    data = json.loads(cli(MIXED, "--json").stdout)
    assert data["sessions"] == analyse(discover(MIXED)).rows
    shop = next(row for row in data["sessions"] if row["session"] == SHOP)
    assert (shop["format"], shop["format_title"], shop["model_calls"]) == ("claude-code", "Claude Code", 2)
    assert shop["recorded_cost_usd"] == pytest.approx(SHOP_COST) and shop["subagents"] == 1
