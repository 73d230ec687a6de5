"""Codex CLI's auto-compaction, worked out by hand from codex-rs (history.rs, compact.rs, openai_models.rs),
and checked on a rollout written by hand in the real layout."""

from pathlib import Path

import pytest

from compaction import Settings, check_pairs, prepare
from compaction.agents.codex.markers import SUMMARY_PREFIX as CODEX_SUMMARY_PREFIX
from compaction.agents.codex.preset import auto_compact_limit
from compaction.agents.codex.usage_rule import codex_count
from compaction.errors import SettingsError
from compaction.importers import load_conversation
from compaction.model.conversation import Conversation
from compaction.replay.loop import replay
from compaction.strategies import build

from .builders import assistant, call, results, user

ENVIRONMENT = "<environment_context>\n  <cwd>/srv/app</cwd>\n</environment_context>"


def session():
    """Message sizes 174, 121, 4,090, 69, 45, 121, 4,090 characters. Codex's count (usage_rule.py) without a
    log: the history up to the last response through the token model (list size / 4, rounded up), plus, in a
    turn that goes on, each tool output as Codex records it ({"type": "function_call_output", "call_id": "t0",
    "output": "x" * 4000}: 4,059 bytes, 1,015 tokens). Before the calls at 1, 3, 5 and after the last result:
    75 + 1,015 = 1,090; 1,116 (a new turn: its message is not recorded yet); 1,158 + 1,015 = 2,173."""
    return [{"role": "user", "content": [{"type": "text", "text": ENVIRONMENT}, {"type": "text", "text": "fix the login bug"}]},
            call("t0"), results(("t0", "x" * 4000)), assistant("fixed"), user("now add a test"), call("t1"),
            results(("t1", "y" * 4000))]


def test_the_limit_is_ninety_percent_of_the_window_or_the_configured_one_if_lower():
    assert auto_compact_limit({"window_tokens": 272_000, "auto_compact_token_limit": 0}) == 244_800
    assert auto_compact_limit({"window_tokens": 272_000, "auto_compact_token_limit": 200_000}) == 200_000
    assert auto_compact_limit({"window_tokens": 272_000, "auto_compact_token_limit": 300_000}) == 244_800
    assert auto_compact_limit({"window_tokens": 0, "auto_compact_token_limit": 0}, 10_000) == 9_000  # the log's
    assert auto_compact_limit({"window_tokens": 0, "auto_compact_token_limit": 0}) == 244_800


def test_it_fires_when_codexs_count_reaches_the_limit():
    messages = session()
    assert [codex_count(prepare(messages[:n])).tokens for n in (3, 5, 7)] == [1_090, 1_116, 2_173]
    step = build("codex", {"window_tokens": 1_230})  # limit 1,107
    assert step(prepare(messages[:3]), Settings()).acted == ()  # 1,090
    assert step(prepare(messages[:5]), Settings()).acted == ("auto_compact",)  # 1,116
    later = build("codex", {"window_tokens": 1_250})  # limit 1,125
    # the request is 1,128 tokens, but the person's new message is not in Codex's count yet: 1,116
    assert prepare(messages[:5]).context_tokens == 1_128 and later(prepare(messages[:5]), Settings()).acted == ()
    assert later(prepare(messages), Settings()).acted == ("auto_compact",)  # 2,173


def test_what_stays_is_the_context_the_persons_messages_and_a_summary():
    sent = build("codex", {"window_tokens": 2_000})(prepare(session()), Settings()).history.messages
    # 2,181 tokens >= 1,800: calls, results and answers go
    assert [b["text"] for b in sent[0]["content"]] == [ENVIRONMENT, "fix the login bug", "now add a test"]
    assert sent[1]["role"] == "user" and sent[1]["content"].startswith(CODEX_SUMMARY_PREFIX + "\n\n")
    assert len(sent) == 2 and check_pairs(sent) == []


def test_the_persons_messages_are_kept_newest_first_within_the_budget():
    sent = build("codex", {"window_tokens": 2_000, "user_message_budget_tokens": 5})(
        prepare(session()), Settings()).history.messages
    # "now add a test": 14 bytes, 4 tokens; "fix the login bug": 17 bytes, 5 tokens > the 1 left: cut to
    # 4 characters (2 + 2) with the 4 tokens left out named
    assert [b["text"] for b in sent[0]["content"]] == [ENVIRONMENT, "fi…4 tokens truncated…ug", "now add a test"]


def test_an_earlier_summary_is_not_kept_as_a_message_of_the_person():
    first = build("codex", {"window_tokens": 2_000})(prepare(session()), Settings()).history
    again = build("codex", {"auto_compact_token_limit": 1})(first, Settings()).history.messages
    assert [b["text"] for b in again[0]["content"]] == [ENVIRONMENT, "fix the login bug", "now add a test"]


def test_a_window_out_of_range_is_refused():
    with pytest.raises(SettingsError, match="codex: window_tokens must be a whole number of tokens, 0 to"):
        build("codex", {"window_tokens": -10})


ROLLOUT = Path(__file__).with_name("codex_logs") / "reasoning_decides.jsonl"


def rollout(tmp_path, keep=lambda line: True) -> Conversation:
    """The hand-written rollout (the layout of cli 0.118: a window of 9,500 reported, so 10,000 and a limit of
    9,000; turn 1's two responses carry 12,000 characters of encrypted reasoning each, 2,088 tokens by Codex's
    estimate), its lines filtered by `keep`."""
    path = tmp_path / ROLLOUT.name
    path.write_text("".join(line for line in ROLLOUT.read_text().splitlines(keepends=True) if keep(line)))
    return load_conversation(path)


def test_the_reasoning_before_the_persons_last_turn_decides(tmp_path):
    """Mid-turn, before the fourth call: the last response's 4,500 + 400, the export log's output (83 tokens)
    and turn 1's reasoning (2 x 2,088): 9,159 >= 9,000, where the request itself is 4,900 tokens (the log
    compacted right there)."""
    conversation = rollout(tmp_path)
    assert conversation.metadata["reasoning_estimates"][:2] == [[1, 2_088], [3, 2_088]]
    result = replay(conversation, strategy="codex", keep_histories=False)
    compacted = [call for call in result.calls if call.acted]
    assert [call.call for call in compacted] == [3] and [b["call"] for b in result.boundaries] == [3]
    assert "9,159 tokens (the last response's 4,900 + 83 added since + 4,176 of earlier reasoning)" in \
        compacted[0].events[0].reason
    assert result.calls[2].tokens < 9_000 and result.totals["reactive"] == 0
    without = rollout(tmp_path, lambda line: '"type":"compacted"' not in line and "context_compacted" not in line)
    without.metadata["reasoning_estimates"] = []  # as if the rollout had no encrypted reasoning
    assert not any(call.acted for call in replay(without, strategy="codex", keep_histories=False).calls)


def test_where_the_log_compacted_it_carries_on_with_what_the_log_kept(tmp_path):
    """The server's replacement history (the person's two messages, the answer, an encrypted compaction item) is
    what the next calls send, at the tokens the log recorded (2,500, then 2,900 and 3,000)."""
    result = replay(rollout(tmp_path), strategy="codex")
    assert [call.tokens for call in result.calls[3:]] == [2_500, 2_900, 3_000]
    assert all(call.exact for call in result.calls)
    first_after = result.history(3).messages
    assert "[Codex compaction summary, encrypted by the server: 3,000 characters]" in str(first_after[0])


def test_without_the_logs_compaction_it_compacts_as_compact_rs_does(tmp_path):
    """The same rollout without its `compacted` line: at the same call, the person's messages and a summary."""
    result = replay(rollout(tmp_path, lambda line: '"type":"compacted"' not in line and "context_compacted" not in line),
                    strategy="codex")
    assert [call.call for call in result.calls if call.acted] == [3]
    sent = result.history(3).messages
    assert [b["text"] for b in sent[0]["content"]][-2:] == ["summarise the ingest logs", "now check the export job"]
    assert sent[1]["content"].startswith(CODEX_SUMMARY_PREFIX) and check_pairs(sent) == []


def test_a_tool_output_counts_as_codex_records_it():
    """Cut to the turn's truncation policy (10,000 tokens x 1.2 = 48,000 bytes), whatever the output's length."""
    messages = [user("read it"), call("t0"), results(("t0", "z" * 400_000))]
    counted = codex_count(prepare(messages))
    assert 12_000 < counted.added < 12_050 and counted.last_response < 100
