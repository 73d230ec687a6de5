"""The forecast's numbers: each agent's threshold from its checked preset, the calls left at the recent
growth, what is kept, and the same forecast for a what-if strategy."""

import pytest

from compaction.errors import SettingsError
from compaction.live.follower import Follower
from compaction.live.forecast import calls_left, forecast
from compaction.live.rules import agent_rule, rule_for
from tests.live.growing import CASES


@pytest.fixture
def followed(tmp_path):
    """The Claude Code case read whole up to its compaction (line 25)."""
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"".join((CASES / "claude_code_growing.jsonl").read_bytes().splitlines(keepends=True)[:25]))
    follower = Follower(path)
    follower.poll()
    return follower


def test_calls_left_at_the_recent_growth():
    assert calls_left(167_000, 145_690, 0, 21_000) == 2
    assert calls_left(167_000, 145_690, 25_000, 21_000) == 1  # what was written since already crosses it
    assert calls_left(167_000, 167_500, 0, 21_000) == 1  # over it already: before the next call
    assert calls_left(167_000, 100_000, 0, None) is None  # one call: no growth to go by
    assert calls_left(167_000, 100_000, 0, -50.0) is None  # shrinking: no compaction in sight
    assert calls_left(1_000_000, 10_000, 0, 1.0) == 990_000


def test_the_agents_preset_follows_the_logs_version(followed):
    session = followed.session
    assert agent_rule(session).threshold == 167_000 and agent_rule(session).label == "Claude Code 2.1.128"
    session.facts["version"] = "2.0.76"
    assert agent_rule(session).threshold == 155_000  # 200,000 - 32,000 - 13,000 up to 2.1.6


def test_what_if_strategies_get_the_same_forecast(followed):
    session = followed.session
    tokens_now = session.newest.context + session.pending_tokens()
    for name, params, threshold in (("claude-code", {"version": "2.1.6"}, 155_000),
                                    ("claude-code", {"window_tokens": 1_000_000}, 967_000),
                                    ("codex", {}, 244_800), ("gemini-cli", {}, 524_288),
                                    ("anthropic-compact", {"trigger": 100_000}, 100_000)):
        found = forecast(session, rule_for(name, params, session))
        assert (found.threshold, found.tokens_now) == (threshold, tokens_now), name
        assert found.tokens_left == threshold - tokens_now
        assert found.calls_left == calls_left(threshold, session.newest.context, session.pending_tokens(),
                                              session.growth_per_call())
        assert found.kept_tokens < tokens_now and found.costs.first_call_after_usd > 0
    gemini = forecast(session, rule_for("gemini-cli", {}, session))
    assert "keeps the newest 30%" in gemini.action
    assert "a guess" in gemini.summary_basis  # no recording gives gemini-cli's snapshot size


def test_a_strategy_without_a_rule_is_refused_by_name(followed):
    with pytest.raises(SettingsError, match="knows the rules of claude-code, codex, gemini-cli, anthropic-compact"):
        rule_for("pipeline", {}, followed.session)
    with pytest.raises(SettingsError, match="codex: window_tokens"):
        Follower(followed.path, what_if="codex", what_if_params={"window_tokens": -5})


def test_before_any_call_there_is_nothing_to_forecast(tmp_path):
    path = tmp_path / "session.jsonl"
    path.write_bytes((CASES / "claude_code_growing.jsonl").read_bytes().splitlines(keepends=True)[0])
    follower = Follower(path)
    follower.poll()
    found = follower.forecast()
    assert (found.threshold, found.tokens_now, found.calls_left, found.costs) == (167_000, None, None, None)


def test_costs_follow_the_models_price_and_cache_lifetime(followed):
    found = followed.forecast()
    costs, session = found.costs, followed.session
    context = session.newest.context
    # Sonnet 4.6: $3 input; 1-hour writes at 2 x, reads at 0.1 x, output $15
    written = found.tokens_now - context
    assert costs.compaction_call_usd == pytest.approx((context * 0.3 + written * 6 + 9_650 * 15) / 1e6)
    assert costs.saved_per_later_call_usd == pytest.approx((found.tokens_now - found.kept_tokens) * 0.3 / 1e6)
    assert costs.priced_by == "claude-sonnet-4-6" and costs.lifetime == "1h"
