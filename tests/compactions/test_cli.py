"""`compaction compactions FILE [--json]`: the cards on the command line, numbered as the pages number calls;
a bad file is one line naming it, with status 2."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASE = Path(__file__).parent / "cases" / "claude_code_manual_compaction.jsonl"
LONG = ROOT / "sample_data" / "claude_code_long_session.jsonl"
KEYS = {"call", "trigger", "tokens_before", "tokens_after", "summary_chars", "cost_usd", "reread_files"}


def cli(*args):
    return subprocess.run([sys.executable, "-m", "compaction", "compactions", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_json_gives_the_cards_with_the_issues_keys(tmp_path):
    done = cli(CASE, "--json", "--store", tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["input"] == {"file": str(CASE), "format": "claude-code", "messages": 17}
    assert data["preset"] == "claude-code"
    [card] = data["compactions"]
    assert set(card) >= KEYS
    assert (card["call"], card["trigger"], card["focus"], card["tokens_before"]) == (5, "manual", "keep the parser", 5000)
    assert [item["name"] for item in card["reread_files"]] == ["/w/a.py", "FAILED test_parser.py::test_split - assert 1 == 2"]
    # the person's /compact happens in every what-if: the preset compacts where the person did
    assert card["preset"]["preset"] == "claude-code" and card["preset"]["call"] == 5


def test_the_agents_preset_beside_each_compaction(tmp_path):
    """The long sample compacts itself twice near 167,000 tokens; Claude Code's preset, replayed, at the same calls."""
    data = json.loads(cli(LONG, "--json", "--store", tmp_path).stdout)
    cards = data["compactions"]
    assert [card["call"] for card in cards] == [133, 261]
    assert [card["preset"]["call"] for card in cards] == [133, 261]
    assert cards[0]["preset"]["carried"].startswith("167,285 tokens >= auto-compact threshold 167,000; ")
    assert all("summary 101 (the log's own, 364 characters)" in card["preset"]["carried"] for card in cards)
    text = cli(LONG, "--no-preset", "--store", tmp_path / "two").stdout
    assert "compaction 1: before call 133, message 265" in text and "the claude-code preset" not in text


def test_a_bad_file_is_one_line_naming_it(tmp_path):
    bad = tmp_path / "broken.jsonl"
    bad.write_text("{not json\n")
    done = cli(bad)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("compaction: error:") and "broken.jsonl" in done.stderr
