"""The forecast's numbers: each agent's threshold from its checked preset, the calls left at the recent
growth, what is kept, and the same forecast for a what-if strategy."""

import math

import pytest

from compaction.errors import SettingsError
from compaction.live.events import CallSeen, FileRead
from compaction.live.follower import Follower
from compaction.live.forecast import calls_left, calls_left_range, forecast, range_label
from compaction.live.pace import DRIFT, SHORT, SHORT_DRIFT, passages
from compaction.live.rules import agent_rule, rule_for
from compaction.live.session import LiveSession
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
    assert calls_left(167_000, 145_690, 0, [21_000]) == 2
    assert calls_left(167_000, 145_690, 25_000, [21_000]) == 1  # what was written since already crosses it
    assert calls_left(167_000, 167_500, 0, [21_000]) == 1  # over it already: before the next call
    assert calls_left(167_000, 100_000, 0, []) is None  # one call: no growth to go by
    assert calls_left(167_000, 100_000, 0, [-50]) is None  # shrinking: no compaction in sight
    assert calls_left(1_000_000, 10_000, 0, [1]) == 990_000


def test_one_big_step_among_small_ones_is_a_burst_not_the_pace():
    """29 calls of 300 tokens and one file read of 20,000 (a session as the public logs show them): a mean
    (961 a call) says 21 calls for 20,000 tokens; replayed from each call in turn, most starts reach the
    big step only after a round of small ones: the middle is about a round away, the range from the starts
    just before the big step to those just after it."""
    growths = [300] * 14 + [20_000] + [300] * 15
    found = passages(20_000, 0, growths)
    assert found[0] == 1  # starting at the big step: the next call closes the gap
    assert len(found) == 30 and found == sorted(found)
    assert calls_left(121_000, 101_000, 0, growths) == 16
    low, high = calls_left_range(121_000, 101_000, 0, growths)
    assert low < 16 < high and low >= 1


def test_a_gap_of_many_rounds_is_counted_in_whole_rounds():
    """1,000,000 tokens at 1,000 and 3,000 by turns: 250 rounds of two calls less the first, whichever
    start; the count does not walk the calls one by one."""
    found = passages(1_000_000, 0, [1_000, 3_000])
    assert found == [500, 500]


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
                                              list(session.growths))
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
    # the summary it writes: the public logs' median (2,460 tokens) before the log has shown one
    assert costs.compaction_call_usd == pytest.approx((context * 0.3 + written * 6 + 2_460 * 15) / 1e6)
    assert costs.saved_per_later_call_usd == pytest.approx((found.tokens_now - found.kept_tokens) * 0.3 / 1e6)
    assert costs.priced_by == "claude-sonnet-4-6" and costs.lifetime == "1h"


def test_one_drop_without_a_compaction_does_not_read_as_not_growing():
    """A microcompact or a rewind shrinks the context once: the pace counts it as no growth, not a shrink."""
    session = LiveSession("claude-code")
    for line, context in enumerate((20_000, 22_000, 24_000, 26_000, 28_000, 30_000, 12_000, 14_000), 1):
        session.feed(CallSeen(line, {"input_tokens": 0, "cache_creation_input_tokens": 0,
                                     "cache_read_input_tokens": context, "output_tokens": 0}))
    # the growths: five of 2,000, one drop of 18,000, one of 2,000; a mean of the signed growths is -857
    assert session.growth_per_call() == pytest.approx(12_000 / 7)
    assert calls_left(167_000, 14_000, 0, list(session.growths)) == 90  # 2,000 a call, the drop as none


def test_the_range_is_the_replays_widened_by_the_drift():
    """20,000 tokens to go at an even 1,000 a call: every replay says 21 calls; the range is the drift of a
    session's future beyond its past (pace.DRIFT) on both sides."""
    low, high = calls_left_range(121_000, 100_000, 0, [1_000] * 30)
    assert calls_left(121_000, 100_000, 0, [1_000] * 30) == 21
    assert (low, high) == (1 + math.floor(20 * math.exp(-DRIFT)), 1 + math.ceil(20 * math.exp(DRIFT)))
    # calls that vary widen it
    wider = calls_left_range(121_000, 100_000, 0, [0, 2_000] * 15)
    assert wider[0] <= low and wider[1] >= high
    assert calls_left_range(121_000, 121_500, 0, [1_000]) == (1, 1)  # already past: before the next call
    assert calls_left_range(121_000, 100_000, 0, []) is None  # one call: no pace yet
    assert calls_left_range(121_000, 100_000, 0, [0, -20]) == (1, None)  # not growing: no end in sight


def test_a_short_history_gets_a_wider_range_that_does_not_claim_80_percent():
    """Under pace.SHORT growths the replays are too few to hold 80 %: the range widens by SHORT_DRIFT and the
    forecast says how many calls it rests on."""
    short = calls_left_range(121_000, 100_000, 0, [1_000] * (SHORT - 1))
    assert short == (1 + math.floor(20 * math.exp(-SHORT_DRIFT)), 1 + math.ceil(20 * math.exp(SHORT_DRIFT)))
    assert SHORT_DRIFT >= DRIFT and short[1] >= calls_left_range(121_000, 100_000, 0, [1_000] * SHORT)[1]
    session = LiveSession("claude-code")
    for line, context in enumerate((20_000, 24_000, 28_000, 32_000), 1):
        session.feed(CallSeen(line, {"input_tokens": 0, "cache_creation_input_tokens": 0,
                                     "cache_read_input_tokens": context, "output_tokens": 0}))
    found = forecast(session, agent_rule(session))
    assert found.history_calls == 3 and range_label(found) == "wider, from only 3 calls of history"
    for line in range(5, 5 + SHORT):
        session.feed(CallSeen(line, {"input_tokens": 0, "cache_creation_input_tokens": 0,
                                     "cache_read_input_tokens": 32_000 + 1_000 * line, "output_tokens": 0}))
    assert range_label(forecast(session, agent_rule(session))) == "80 %"


def test_kept_tokens_are_what_the_last_compaction_carried_on_with(tmp_path):
    """After its compaction the growing case's first call carried 29,805 tokens: the next compaction's
    kept_tokens are those, not the model's estimate."""
    path = tmp_path / "session.jsonl"
    path.write_bytes((CASES / "claude_code_growing.jsonl").read_bytes())
    follower = Follower(path)
    follower.poll()
    found = follower.forecast()
    assert follower.session.compactions[-1].first_call_after == 29_805
    assert found.kept_tokens == 29_805 and "last compaction carried on with" in found.kept_basis


def test_claude_code_kept_tokens_are_its_after_compaction_model(tmp_path):
    """Claude Code's first call after, as after_compaction.py models it from what the session showed: the first
    call's context less its prompt, the summary its version writes, the five files read, written or edited
    last (each whole up to 5,000 tokens; over it left out up to 2.1.127, its path from 2.1.128; the plan file
    and the memory index are not files), the last plan and the last to-do list."""
    from compaction.agents.claude_code import live_kept, rules
    from compaction.agents.claude_code.live_lines import PLAN_CHARS, TODOS_CHARS
    from compaction.live.events import Fact

    session = LiveSession("claude-code")
    session.feed(Fact("version", "2.1.120"))
    session.feed(CallSeen(1, {"input_tokens": 3, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 14_000,
                              "output_tokens": 10}))
    for path, chars in (("a.py", 4_000), ("b.py", 40_000), ("c.py", 8_000), ("d.py", 2_000), ("e.py", 24_000),
                        ("a.py", 6_000), ("/home/u/.claude/plans/p.md", 3_000), ("/home/u/memory/MEMORY.md", 900),
                        ("f.py", 400)):
        session.feed(FileRead(path, chars))
    session.feed(Fact(PLAN_CHARS, 2_000))
    session.feed(Fact(TODOS_CHARS, 400))
    # at 4 characters a token (the session has not shown its own rate yet): the newest five files f, a (read
    # again), e (24,000 characters less line numbers: over 5,000 tokens, left out), d, c
    summary = round(10_116 / 4)  # the median summary of the public logs from 2.1.92 on
    tokens, basis = live_kept.first_call_after(None, session, 100_000)
    assert tokens == 14_003 + summary + (100 + 1_500 + 500 + 2_000) + 500 + 100
    assert "after-compaction model" in basis and "4 file(s) re-attached 4,100" in basis
    session.feed(Fact("version", "2.1.128"))  # from 2.1.128 the long one comes back as its path
    assert live_kept.first_call_after(None, session, 100_000)[0] == tokens + rules.PATH_ONLY_TOKENS
    found = forecast(session, agent_rule(session))
    assert found.kept_tokens == tokens + rules.PATH_ONLY_TOKENS and "after-compaction model" in found.kept_basis
