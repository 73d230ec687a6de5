"""`compaction export FILE --strategy NAME --form FORM [setting flags] [-o OUT]`: every form named in --help,
each written for its strategy from the setting flags of run/replay, refusals and bad input as one line and
exit status 2."""

import json
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from compaction.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT / "sample_data" / "seed_demo.json"
CLAUDE_CODE_LOG = ROOT / "sample_data" / "claude_code_session.jsonl"


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def cli(capsys):
    """`compaction export ...` in this process (the command's own main, as the console script calls it)."""
    def run(*args) -> Done:
        code = main(["export", *map(str, args)])
        out, err = capsys.readouterr()
        return Done(code, out, err)
    return run


def test_help_names_every_form():
    done = subprocess.run([sys.executable, "-m", "compaction", "export", "--help"], capture_output=True, text=True,
                          timeout=180)
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    for form in ("python", "context_management", "claude-code", "codex-toml", "langchain", "openhands", "gemini",
                 "client"):
        assert form in text, form
    assert "--strategy NAME" in text and "--context-limit N" in text and "-o OUTPUT" in text


def test_python_with_the_setting_flags_runs_alone_and_matches_run(cli, tmp_path):
    out = tmp_path / "settings.py"
    done = cli(SEED, "--strategy", "pipeline", "--form", "python", "--context-limit", "5000", "--keep-recent", "1",
               "-o", out)
    assert done.returncode == 0, done.stderr
    assert "61 calls" in done.stderr and f"wrote {out}" in done.stderr and done.stdout == ""
    text = out.read_text()
    assert "CONTEXT_LIMIT = 5_000" in text and "KEEP_RECENT = 1" in text
    ran = subprocess.run([sys.executable, "-I", "-S", str(out), str(SEED)], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    lab = subprocess.run([sys.executable, "-m", "compaction", "run", SEED, "--json", "--context-limit", "5000",
                          "--keep-recent", "1", "--store", tmp_path / ".task_outputs"], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    stages = json.loads(lab.stdout)["stages"]
    printed = [line.split(":")[1].split() for line in ran.stdout.splitlines()[:5]]
    assert [f"{s['size'] / 1000:,.2f}" for s in stages] == [row[0] for row in printed]
    assert [str(s["messages"]) for s in stages] == [row[2] for row in printed]


@pytest.mark.parametrize("strategy, form, params, read", [
    ("anthropic-clear-tool-uses", "context_management", ["trigger=40000"], json.loads),
    ("codex", "codex", ["auto_compact_token_limit=150000"], tomllib.loads),
    ("openhands-amortized", "openhands", ["max_size=60"], tomllib.loads),
    ("langchain-clear-tool-uses", "langchain", ["keep=5"], lambda text: compile(text, "x", "exec")),
    ("gemini-cli", "gemini", ["threshold_fraction=0.4"], json.loads),
    ("hybrid", "client", ["mask_window=8"], lambda text: compile(text, "x", "exec")),
])
def test_each_form_goes_to_standard_output(cli, strategy, form, params, read):
    args = [SEED, "--strategy", strategy, "--form", form]
    for param in params:
        args += ["--param", param]
    done = cli(*args)
    assert done.returncode == 0, done.stderr
    read(done.stdout)
    assert params[0].split("=")[1] in done.stdout


def test_claude_code_uses_the_logs_version_and_says_what_cannot_be_set(cli):
    done = cli(CLAUDE_CODE_LOG, "--strategy", "claude-code", "--form", "claude-code", "--param", "buffer_tokens=25000",
               "--param", "microcompact=true")
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if not line.startswith("#")]
    assert lines and all(line.startswith("export CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=") for line in lines)
    assert "note: Cannot be set in Claude Code: microcompact" in done.stderr
    assert "rules of Claude Code 2.1" in done.stdout


@pytest.mark.parametrize("args, words", [
    (["--strategy", "pipeline", "--form", "codex"], "the codex form does not fit the strategy pipeline"),
    (["--strategy", "codex", "--form", "python"], "for codex choose codex, client"),
    (["--strategy", "nope", "--form", "python"], "unknown strategy 'nope'"),
    (["--strategy", "codex", "--form", "yaml"], "unknown export form 'yaml'"),
    (["--strategy", "codex", "--form", "codex", "--param", "window_tokens=20000000"], "codex: window_tokens must be"),
    (["--strategy", "pipeline", "--form", "python", "--context-limit", "0"], "context_limit must be between"),
])
def test_bad_input_is_one_line_and_status_2(cli, args, words):
    done = cli(SEED, *args)
    assert done.returncode == 2
    assert done.stdout == ""
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("compaction: error: ") and words in line


def test_a_missing_file_is_named(cli, tmp_path):
    done = cli(tmp_path / "missing.json", "--strategy", "codex", "--form", "codex")
    assert done.returncode == 2 and "missing.json" in done.stderr and "Traceback" not in done.stderr
