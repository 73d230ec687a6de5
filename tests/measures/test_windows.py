"""The model window by model: the window table (each row with its source), the log's own figure first, and
`replay` with no window given using the log's model's window, checked on hand-written logs of each agent's
real layout and through the command line."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import compaction.agents  # noqa: F401 (the agents register their rows)
from compaction.importers import load_conversation
from compaction.measures.windows import FALLBACK_WINDOW, log_window, window_for, window_table
from compaction.replay.loop import replay

CASES = Path(__file__).resolve().parents[1] / "importers" / "cases" / "valid"
SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"


@pytest.mark.parametrize("model, tokens", [
    ("claude-sonnet-4-5-20250929", 200_000), ("claude-opus-4-6", 200_000), ("claude-opus-4-6[1m]", 1_000_000),
    ("anthropic/Claude-Sonnet-4-5[1m]", 1_000_000), ("gpt-5.4", 272_000), ("gpt-5.1-codex-mini", 272_000),
    ("gpt-4.1", 1_047_576), ("gemini-3-pro-preview", 1_048_576), ("gemini-2.5-flash", 1_048_576),
    ("gemma-4-27b-it", 256_000)])
def test_each_family_has_its_window(model, tokens):
    assert window_for(model).tokens == tokens


def test_a_model_the_table_does_not_know_has_no_row():
    assert window_for("glm-4.7") is None and window_for("claude-opus-4-9") is None and window_for(None) is None
    assert log_window([{"model": "glm-4.7"}], {}).tokens == FALLBACK_WINDOW
    assert "glm-4.7 is not in the window table" in log_window([{"model": "glm-4.7"}], {}).source


def test_every_row_names_its_source():
    rows = window_table()
    assert len({row.family for row in rows}) == len(rows) > 40
    assert all(row.source and row.tokens > 0 for row in rows)


def test_the_main_model_decides_and_the_logs_own_figure_wins():
    usage = [{"model": "claude-haiku-4-5"}, {"model": "gpt-5.4"}, {"model": "gpt-5.4"}, None]
    assert log_window(usage, {}).tokens == 272_000
    assert log_window(usage, {"model_window_tokens": 400_000, "model_window_source": "said"}).as_dict() == \
        {"tokens": 400_000, "source": "said"}


def test_a_codex_rollout_names_95_percent_of_the_window():
    """cli 0.55 on reports model_context_window 258,400: 95 % of the model's 272,000; the first versions the
    model's own (272,000)."""
    newer = load_conversation(CASES / "codex_compaction.jsonl")
    assert newer.metadata["model_context_window"] == 258_400 and newer.metadata["model_window_tokens"] == 272_000
    older = load_conversation(CASES / "codex_compaction_summary_only.jsonl")
    assert older.metadata["model_window_tokens"] == 272_000


def test_replay_without_a_window_uses_the_logs_model(tmp_path):
    assert replay(load_conversation(CASES / "codex_compaction.jsonl"), keep_histories=False).model_window_tokens \
        == 272_000
    gemini = tmp_path / "gemini-3-pro.json"
    recording = json.loads((CASES / "gemini_chat_tool_calls.json").read_text())
    for message in recording["messages"]:
        if message.get("type") == "gemini":
            message["model"] = "gemini-3-pro-preview"
    gemini.write_text(json.dumps(recording))
    assert replay(load_conversation(gemini), keep_histories=False).model_window_tokens == 1_048_576
    claude = load_conversation(SAMPLES / "claude_code_session.jsonl")
    assert {u["model"] for u in claude.usage if u} == {"claude-sonnet-4-5"}
    assert replay(claude, keep_histories=False).model_window_tokens == 200_000
    assert replay(claude, keep_histories=False, model_window_tokens=50_000).model_window_tokens == 50_000


def test_a_claude_code_model_chosen_with_its_1m_window(tmp_path):
    """Claude Code's /model writes `Set model to opus[1m] (claude-opus-4-6[1m])` (colour codes around it);
    the responses' own model ids stay `claude-opus-4-6`."""
    lines = [json.loads(line) for line in (SAMPLES / "claude_code_session.jsonl").read_text().splitlines()]
    first = next(line for line in lines if line.get("type") == "user")
    said = {**first, "uuid": "model-line", "parentUuid": None, "message": {"role": "user", "content":
            "<local-command-stdout>Set model to \u001b[1mopus[1m] (claude-opus-4-6[1m])\u001b[22m"
            "</local-command-stdout>"}}
    first["parentUuid"] = "model-line"  # the session goes on from the /model line, as Claude Code chains it
    path = tmp_path / "chosen.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in [said, *lines]) + "\n")
    conversation = load_conversation(path)
    assert log_window(conversation.usage, conversation.metadata).tokens == 1_000_000
    assert replay(conversation, keep_histories=False).model_window_tokens == 1_000_000


def test_the_command_line_says_the_window_and_its_source():
    done = subprocess.run([sys.executable, "-m", "compaction", "replay", str(CASES / "codex_compaction.jsonl"),
                           "--json"], capture_output=True, text=True, check=True)
    data = json.loads(done.stdout)
    assert data["totals"]["model_window_tokens"] == 272_000
    assert data["model_window"]["tokens"] == 272_000 and "258,400" in data["model_window"]["source"]
    given = subprocess.run([sys.executable, "-m", "compaction", "replay", str(CASES / "codex_compaction.jsonl"),
                            "--json", "--model-window", "150000"], capture_output=True, text=True, check=True)
    assert json.loads(given.stdout)["model_window"] == {"tokens": 150_000, "source": "--model-window"}
