"""Codex CLI's auto-compaction, worked out by hand from codex-rs (compact.rs, openai_models.rs)."""

import pytest

from compaction import Settings, check_pairs, prepare
from compaction.agents.codex.markers import SUMMARY_PREFIX as CODEX_SUMMARY_PREFIX
from compaction.agents.codex.preset import auto_compact_limit
from compaction.errors import SettingsError
from compaction.strategies import build

from .builders import assistant, call, results, user

ENVIRONMENT = "<environment_context>\n  <cwd>/srv/app</cwd>\n</environment_context>"


def session():
    """Message sizes 174, 121, 4,090, 69, 45, 121, 4,090 characters: before the calls at 1, 3, 5 and after
    the last result the request carries 44, 1,098, 1,128 and 2,181 tokens (list size / 4, rounded up)."""
    return [{"role": "user", "content": [{"type": "text", "text": ENVIRONMENT}, {"type": "text", "text": "fix the login bug"}]},
            call("t0"), results(("t0", "x" * 4000)), assistant("fixed"), user("now add a test"), call("t1"),
            results(("t1", "y" * 4000))]


def test_the_limit_is_ninety_percent_of_the_window_or_the_configured_one_if_lower():
    assert auto_compact_limit({"window_tokens": 272_000, "auto_compact_token_limit": 0}) == 244_800
    assert auto_compact_limit({"window_tokens": 272_000, "auto_compact_token_limit": 200_000}) == 200_000
    assert auto_compact_limit({"window_tokens": 272_000, "auto_compact_token_limit": 300_000}) == 244_800


def test_it_fires_when_the_request_reaches_the_limit():
    messages = session()
    step = build("codex", {"window_tokens": 1_250})  # limit 1,125
    assert step(prepare(messages[:3]), Settings()).acted == ()  # 1,098 tokens
    assert step(prepare(messages[:5]), Settings()).acted == ("auto_compact",)  # 1,128 >= 1,125
    assert build("codex", {"window_tokens": 2_000})(prepare(messages[:5]), Settings()).acted == ()  # limit 1,800


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
    with pytest.raises(SettingsError, match="codex: window_tokens must be a whole number of tokens, 1,000 to"):
        build("codex", {"window_tokens": 10})
