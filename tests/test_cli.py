"""The command line contract: `sample`, `run` (table and --json), `-o`, and exit status 2 on bad input."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "compaction", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def seed_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "seed.json"
    done = cli("sample", "seed-demo", "-o", path)
    assert done.returncode == 0, done.stderr
    return path


def test_sample_writes_the_seed_demo(seed_file):
    messages = json.loads(seed_file.read_text())
    assert len(messages) == 123 and round(len(str(messages)) / 1000) == 697


def test_run_json_has_the_contract_keys(seed_file, tmp_path):
    done = cli("run", seed_file, "--json", "--store", tmp_path / "store", "-o", tmp_path / "out.json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert {"input", "settings", "stages", "persisted", "snipped", "placeholders", "summary", "valid"} <= set(report)
    assert [s["layer"] for s in report["stages"]] == ["input", "L3", "L1", "L2", "L4"]
    assert [round(s["size"] / 1000) for s in report["stages"][:4]] == [697, 62, 26, 10]
    assert report["stages"][2]["messages"] == 52 and report["stages"][4]["triggered"] is False
    assert all({"messages", "size", "tokens"} <= set(s) for s in report["stages"])
    [persisted] = report["persisted"]
    assert persisted["tool_use_id"] == "tbig" and persisted["tool"] == "bash" and persisted["bytes"] > 600_000
    assert Path(persisted["path"]).parent == tmp_path / "store" / "tool-results"
    assert {"start", "end", "count"} <= set(report["snipped"][0])
    assert {"index", "tool_use_id", "tool"} <= set(report["placeholders"][0])
    assert report["valid"] is True
    final = json.loads((tmp_path / "out.json").read_text())
    assert len(final) == 52


def test_run_prints_a_table_and_settings_change_it(seed_file, tmp_path):
    done = cli("run", seed_file, "--context-limit", "5000", "--keep-recent", "1", "--store", tmp_path)
    assert done.returncode == 0, done.stderr
    assert "L4 LLM summary" in done.stdout and "not triggered" not in done.stdout
    assert "tool pairs intact" in done.stdout


@pytest.mark.parametrize(("content", "words"), [
    ("{not json", "line 1"),
    ('{"messages": 5}', "'messages' must be a list"),
    ("[]", "no messages"),
])
def test_bad_input_is_one_line_and_status_2(tmp_path, content, words):
    path = tmp_path / "bad.json"
    path.write_text(content)
    done = cli("run", path)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "bad.json" in lines[0]


def test_bad_setting_is_named(seed_file):
    done = cli("run", seed_file, "--keep-recent", "-4")
    assert done.returncode == 2
    assert done.stderr.strip() == "compaction: error: keep_recent must be between 0 and 1,000,000, got -4"


def test_missing_file_is_named(tmp_path):
    done = cli("run", tmp_path / "nowhere.json")
    assert done.returncode == 2 and "nowhere.json" in done.stderr and "Traceback" not in done.stderr


def test_exact_tokens_come_from_the_count_tokens_endpoint(seed_file, fake_anthropic, tmp_path):
    import os

    env = {**os.environ, "ANTHROPIC_API_KEY": "sk-ant-cli-test", "ANTHROPIC_BASE_URL": fake_anthropic.url}
    done = subprocess.run([sys.executable, "-m", "compaction", "run", str(seed_file), "--json", "--exact-tokens",
                           "--store", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    stages = json.loads(done.stdout)["stages"]
    assert all(isinstance(s["exact_tokens"], int) and s["exact_tokens"] > 0 for s in stages)
    assert stages[0]["exact_tokens"] > stages[3]["exact_tokens"]
    counted = [r for r in fake_anthropic.requests if r.path.endswith("/count_tokens")]
    assert len(counted) == 4  # L2 and an untriggered L4 share one history: counted once


def test_exact_tokens_without_a_key_is_a_clear_error(seed_file, monkeypatch):
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    done = subprocess.run([sys.executable, "-m", "compaction", "run", str(seed_file), "--exact-tokens"],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2 and "ANTHROPIC_API_KEY" in done.stderr and "Traceback" not in done.stderr


def test_claude_without_a_key_stops_before_any_work(seed_file):
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    done = subprocess.run([sys.executable, "-m", "compaction", "run", str(seed_file), "--summarizer", "claude"],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert "No Anthropic API key" in done.stderr and "Traceback" not in done.stderr


def test_claude_summary_uses_the_summary_settings(seed_file, fake_anthropic, tmp_path):
    import os

    fake_anthropic.reply("short summary")
    env = {**os.environ, "ANTHROPIC_API_KEY": "sk-ant-cli-test", "ANTHROPIC_BASE_URL": fake_anthropic.url}
    done = subprocess.run([sys.executable, "-m", "compaction", "run", str(seed_file), "--json", "--summarizer", "claude",
                           "--context-limit", "1000", "--summary-max-tokens", "321", "--summary-input-cap", "5000",
                           "--store", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["summary"]["text"] == "short summary"
    [body] = fake_anthropic.bodies()
    assert body["max_tokens"] == 321
    prompt = body["messages"][0]["content"]
    assert len(prompt) < 5000 + 1000  # the prompt's own words, then at most 5,000 characters of history
