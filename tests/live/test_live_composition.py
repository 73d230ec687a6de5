"""What fills a followed session's context, as far as the follower knows it, and what each shape of rule
would take of it: the kinds add up to the forecast's tokens now, and what remains after the compaction to
what the forecast says the compaction keeps."""

import pytest

from compaction.live import LIVE_KINDS, Follower, agent_rule, forecast, live_composition, rule_for
from compaction.live.session import LiveSession
from compaction.measures import NOT_IN_LOG, TOOL_RESULTS
from tests.live.growing import CASES


def followed(tmp_path, lines: int | None = None) -> Follower:
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"".join((CASES / "claude_code_growing.jsonl").read_bytes().splitlines(keepends=True)[:lines]))
    follower = Follower(path)
    follower.poll()
    return follower


def test_the_kinds_add_up_to_the_context_and_a_summarise_all_rule_takes_all_but_the_system_prompt(tmp_path):
    follower = followed(tmp_path)
    session, found = follower.session, follower.forecast()
    composition = live_composition(session, agent_rule(session), found)
    assert list(composition.kinds) == list(LIVE_KINDS)
    assert sum(composition.kinds.values()) == composition.tokens == found.tokens_now
    assert composition.call == len(session.calls)
    assert composition.kinds["system_and_tools"] == session.base_tokens
    assert composition.kinds["summaries"] > 0  # the log's own compaction left one
    assert composition.kinds["replies"] == sum(call.output for call in
                                               (session.calls[i] for i in range(len(session.calls)))
                                               if call.segment == len(session.compactions))
    assert composition.taken == {kind: 0 if kind == "system_and_tools" else value
                                 for kind, value in composition.kinds.items()}
    assert sum(composition.after.values()) == found.kept_tokens
    assert composition.label == found.label and composition.action == found.action


def test_before_the_first_compaction_the_first_prompt_is_counted_once(tmp_path):
    follower = followed(tmp_path, 9)
    session = follower.session
    assert not session.compactions and session.segment.person_turns == 1
    composition = live_composition(session, agent_rule(session), follower.forecast())
    assert composition.kinds["person"] == 0  # the first prompt is in the first call's context
    assert composition.kinds[TOOL_RESULTS] > 0 and composition.kinds["summaries"] == 0


@pytest.mark.parametrize(("strategy", "params"), [("codex", {}), ("gemini-cli", {})])
def test_the_other_shapes_keep_the_persons_turns_or_the_newest_share(tmp_path, strategy, params):
    follower = followed(tmp_path)
    session = follower.session
    rule = rule_for(strategy, params, session)
    found = forecast(session, rule)
    composition = live_composition(session, rule, found)
    assert sum(composition.kinds.values()) == found.tokens_now
    assert composition.taken["system_and_tools"] == 0
    if strategy == "codex":  # keeps the person's newest messages within its budget, drops the rest
        assert composition.taken[TOOL_RESULTS] == composition.kinds[TOOL_RESULTS]
        assert composition.after["person"] == min(composition.kinds["person"], rule.params["user_message_budget_tokens"])
    else:  # summarises the oldest share of every kind, keeps the newest
        share = rule.params["preserve_fraction"]
        for kind in (TOOL_RESULTS, "replies", NOT_IN_LOG):
            assert composition.after[kind] == composition.kinds[kind] - round(composition.kinds[kind] * (1 - share))
    assert composition.after["summaries"] >= rule.form.default_summary or session.compactions


def test_nothing_before_the_first_call(tmp_path):
    session = followed(tmp_path).session
    empty = LiveSession(session.agent)
    rule = agent_rule(empty)
    found = forecast(empty, rule)
    assert found.tokens_now is None and live_composition(empty, rule, found) is None
