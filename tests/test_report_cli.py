"""`python -m compaction report FILE -o report.html`: one self-contained HTML file with the settings, both
charts and what changed; the file name escaped; bad input one line and status 2; the engine itself never
imports plotly (the report command loads the dashboard's builder only when it runs)."""

import json
import re
import subprocess
import sys
from pathlib import Path

from dashboard.render.html_report import measures_section

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "sample_data" / "seed_demo.json"


def cli(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "compaction", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_report_holds_settings_charts_and_what_changed(tmp_path):
    out = tmp_path / "report.html"
    done = cli("report", SEED, "--context-limit", "5000", "--keep-recent", "1", "--store", tmp_path / "store",
               "-o", out)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{out}: report on {SEED} (123 messages)"
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "<td>Summarise when the history passes: CONTEXT_LIMIT (characters)</td><td class=\"number\">5,000</td>" \
        in page
    assert "<td>Newest results kept whole: KEEP_RECENT (tool results)</td><td class=\"number\">1</td>" in page
    assert page.count("Plotly.newPlot(") == 2  # the waterfall and the replay
    assert "<h3>Snipped from the middle (L1)</h3><table>" in page  # 72 messages snipped at the defaults
    assert "<td class=\"number\">3</td><td class=\"number\">74</td><td class=\"number\">72</td>" in page
    assert "message 122: bash · tbig" in page and "&lt;persisted-output&gt;" in page  # the preview, escaped
    assert "Summary of 52 messages (offline summariser, no LLM)." in page  # L4 fired at 5,000
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", page)  # nothing loaded from elsewhere


def test_report_escapes_what_the_file_says(tmp_path):
    conversation = [{"role": "user", "content": "<script>alert(1)</script> go"},
                    {"role": "assistant", "content": [{"type": "tool_use", "id": "t<b>1", "name": "x<i>",
                                                        "input": {}}]},
                    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t<b>1", "content": "y" * 500}]},
                    {"role": "assistant", "content": "done"}]
    source = tmp_path / "a<b>.json"
    source.write_text(json.dumps(conversation))
    out = tmp_path / "report.html"
    done = cli("report", source, "--keep-recent", "0", "--store", tmp_path / "store", "-o", out)
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    assert "<title>Compaction report: a&lt;b&gt;.json</title>" in page
    assert "<td>x&lt;i&gt;</td><td>t&lt;b&gt;1</td>" in page  # the placeholder row: tool and id as typed
    assert "<b>1" not in page and "<i>" not in page and "alert(1)</script>" not in page


def test_report_of_bad_input_is_one_line_and_status_2(tmp_path):
    bad = tmp_path / "cut.json"
    bad.write_text('[{"role": "user", "content": "hel')
    done = cli("report", bad, "-o", tmp_path / "report.html")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"compaction: error: {bad}: not valid JSON: line 1, column 30: a string starts here and is never closed "
        "with a quote; the text ends before the JSON is complete (was the file cut off?)"]
    assert not (tmp_path / "report.html").exists()


def test_the_engine_never_imports_plotly():
    code = ("import sys, compaction, compaction.cli.main, compaction.layers.pipeline, compaction.replay.loop, "
            "compaction.cli.tables; compaction.cli.main.build_parser(); print('plotly' in sys.modules, 'streamlit' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["False", "False"], done.stderr


def test_cost_and_loss_measures_are_shown_when_the_replay_has_them():
    assert measures_section({"calls": 3, "tokens_sent": 100}) == ""  # today's totals: no section
    totals = {"cost_usd": 1.5, "cost_usd_no_cache": 4.25, "blind_references": 7, "artifact_retention": 0.875,
              "calibration": {"tokens_per_char": 0.3, "overhead_tokens": 15000, "median_abs_error": 0.04,
                              "calls": 12}}
    section = measures_section(totals)
    assert "<td>Modelled cost of every call, with prompt caching</td><td>$1.50</td>" in section
    assert "<td>Modelled cost of every call, without prompt caching</td><td>$4.25</td>" in section
    assert "<td>What this session cost according to its log</td><td>$2.40</td>" in measures_section(
        totals | {"recorded_cost_usd": 2.4})
    assert "<td>7</td>" in section and "<td>88 %</td>" in section
    assert ("<td>tokens per character 0.300, overhead 15,000 tokens, median error 4.0%, fitted on 12 calls</td>"
            in section)
    assert "<td>Token estimate calibrated on the log&#x27;s recorded usage" in section
    assert measures_section({"calibration": None}) == ""  # no usage recorded: nothing to show


def test_report_on_a_log_that_compacted_itself_says_what_it_cost_and_how_far_to_trust_it(tmp_path):
    out = tmp_path / "report.html"
    log = ROOT / "sample_data" / "claude_code_long_session.jsonl"
    done = cli("report", log, "--store", tmp_path / "store", "-o", out)
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    # the one pass leaves the agent's own summaries out, and says so
    assert "This log compacted itself twice. The layers run on the whole history with the agent&#x27;s own 2 " \
           "summaries left out" in page
    # like for like: no compaction stops at call 156, so both sides cover calls 1-155
    assert "Without compaction the agent stops at call 156 of 320" in page
    assert "<h3>Like for like: calls 1–155</h3>" in page and "saved vs no compaction, calls 1–155" in page
    assert "what this session cost (its log)" in page and "What this session cost: $9.98" in page
    assert "<h3>How far to trust the what-if: the log's own compactions</h3>" in page
    assert "<td>133</td><td>167,285</td>" in page  # the log's first compaction, before call 133


def test_report_carries_the_logs_own_compactions(tmp_path):
    """The cards of `compaction compactions`, one per compaction the log records, in the report."""
    source = ROOT / "sample_data" / "claude_code_long_session.jsonl"
    out = tmp_path / "report.html"
    done = cli("report", source, "--store", tmp_path / "store", "-o", out)
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    cards = json.loads(cli("compactions", source, "--json", "--store", tmp_path / "store2").stdout)["compactions"]
    assert "<h2>The agent's own compactions</h2>" in page
    for card in cards:
        assert f"<h3>Compaction {card['number']}, before call {card['call']:,}</h3>" in page
        assert f"<td>Tokens before (the log&#x27;s count)</td><td>{card['tokens_before']:,}</td>" in page
        assert all(item["name"] in page for item in card["reread_files"] if "<" not in item["name"])
    assert page.count("<h3>Compaction ") == len(cards) == 2
