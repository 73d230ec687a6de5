"""The peer strategies: observation masking and keep-last-N plus a summary, alone and in a replay."""

import copy
import tempfile
from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compaction import OutputStore, Settings, check_pairs, prepare
from compaction.errors import SettingsError
from compaction.layers.micro import PLACEHOLDER, micro_compact
from compaction.model.markers import KEEP_LAST_SUMMARY_PREFIX as SUMMARY_PREFIX
from compaction.model.markers import MASK
from compaction.replay.loop import replay
from compaction.strategies import Step, masking_step, summary_keep_last_step

from .builders import turns, user
from .conv_builder import build, random_turns, with_compact_calls
from .strategies import conversations


def test_masking_keeps_the_newest_outputs_and_every_message():
    messages = turns(8, output_chars=300)
    before = copy.deepcopy(messages)
    step = masking_step(prepare(messages), Settings(keep_recent=3))
    assert messages == before
    assert step.acted == ("mask",) and len(step.events) == 5
    assert {e.text for e in step.events} == {MASK} != {PLACEHOLDER}
    outputs = [b["content"] for m in step.history.messages for b in m["content"]
               if isinstance(b, dict) and b.get("type") == "tool_result"]
    assert outputs == [MASK] * 5 + ["x" * 300] * 3
    assert len(step.history) == len(messages)
    assert step.history.size == len(str(step.history.messages))
    again = masking_step(step.history, Settings(keep_recent=3))
    assert again.history is step.history and again.acted == ()


def test_masking_leaves_outputs_shorter_than_the_mask():
    messages = turns(4, output_chars=3)
    assert masking_step(prepare(messages), Settings(keep_recent=0)).acted == ()


def test_masking_window_overrides_keep_recent():
    step = masking_step(prepare(turns(6, output_chars=300)), Settings(keep_recent=0), window=4)
    assert len(step.events) == 2


def test_summary_keep_last_under_the_trigger_changes_nothing():
    history = prepare(turns(5))
    step = summary_keep_last_step(history, Settings(context_limit=100_000))
    assert step.history is history and step.acted == () and step.checked_size == history.context_size


def test_summary_keep_last_moves_the_cut_over_a_tool_pair():
    messages = turns(10)  # user, then (call, result) pairs: 21 messages
    step = summary_keep_last_step(prepare(messages), Settings(context_limit=100), keep_last=4)
    sent = step.history.messages
    assert sent[0]["content"].startswith(SUMMARY_PREFIX)
    assert sent[1:] == messages[-4:]  # 17 is a call: the cut needs no move
    moved = summary_keep_last_step(prepare(messages), Settings(context_limit=100), keep_last=3)
    assert moved.history.messages[1:] == messages[-4:]  # 18 is a result: its call comes along
    assert check_pairs(moved.history.messages) == []
    assert moved.acted == ("summary",) and moved.events[0].succeeded


def test_summary_keep_last_does_not_resummarise_a_lone_summary():
    messages = [user("[Summary of earlier conversation]\n\nold"), *turns(1, output_chars=5_000)[1:]]
    step = summary_keep_last_step(prepare(messages), Settings(context_limit=100), keep_last=2)
    assert step.acted == ()


def test_replay_runs_each_strategy_side_by_side():
    messages = build(random_turns(80, seed=11, big_every=20))
    chosen = Settings(context_limit=20_000, keep_recent=3)
    runs = {name: replay(messages, chosen, strategy=name) for name in ("pipeline", "masking", "summary_keep_last")}
    for name, result in runs.items():
        assert len(result.calls) == len(runs["pipeline"].calls)
        assert result.strategy == name
        for record in result.calls:
            assert check_pairs(result.history(record.call).messages) == [], (name, record.call)
    masking = runs["masking"]
    assert masking.totals["summaries"] == 0
    # masking never removes a message: each call sends the whole prefix, masked
    assert all(c.messages == c.index for c in masking.calls)
    assert all(a == "mask" for c in masking.calls for a in c.acted)
    summary = runs["summary_keep_last"]
    assert summary.totals["summaries"] > 0
    assert {a for c in summary.calls for a in c.acted} == {"summary"}
    for name, result in runs.items():
        assert result.totals["tokens_sent"] < result.totals["raw_tokens_sent"], name


def test_replay_takes_a_step_function():
    messages = build(random_turns(30, seed=12))
    result = replay(messages, Settings(context_limit=5_000), strategy=partial(summary_keep_last_step, keep_last=2))
    assert result.totals["summaries"] > 0
    for record in result.calls:
        sent = result.history(record.call).messages
        if "summary" in record.acted:
            assert len(sent) <= 1 + 3  # the summary and the last 2 (3 when the cut moved)


def test_unknown_strategy():
    with pytest.raises(SettingsError, match="unknown strategy"):
        replay(turns(2), Settings(), strategy="forget-everything")



def full_masking_step(history, chosen, store=None, summarizer=None):
    """Masking without the frontier shortcut: every output looked at, every call."""
    masked = micro_compact(history, chosen.replace(min_placeholder_chars=len(MASK)), placeholder=MASK)
    return Step(masked.history, ("mask",) if masked.events else (), tuple(masked.events))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.data_too_large])
@given(st.data(), conversations(max_turns=25), st.sampled_from([0, 1, 2, 5]), st.sampled_from([200_000, 300, 60]))
def test_masking_frontier_gives_the_full_masking(data, messages, keep, window):
    messages = with_compact_calls(data, messages)
    with tempfile.TemporaryDirectory() as root:
        store = OutputStore(root)
        chosen = Settings(keep_recent=keep)
        fast = replay(messages, chosen, store=store, model_window_tokens=window, strategy="masking")
        full = replay(messages, chosen, store=store, model_window_tokens=window, strategy=full_masking_step)
    assert [c.as_dict() for c in fast.calls] == [c.as_dict() for c in full.calls]
    for record in fast.calls:
        sent = fast.history(record.call)
        assert sent.messages == full.history(record.call).messages
        assert sent.sizes == [len(str(m)) for m in sent.messages]
        assert check_pairs(sent.messages) == []



def test_masking_frontier_is_not_fooled_by_an_output_that_reads_like_the_mask():
    messages = turns(4, output_chars=300)  # results at 2, 4, 6, 8
    messages[4] = copy.deepcopy(messages[4])
    messages[4]["content"][0]["content"] = MASK  # a tool really printed "<MASKED>"
    step = masking_step(prepare(messages), Settings(keep_recent=1))
    assert [e.index for e in step.events] == [2, 6]


def test_a_parameter_given_to_a_tutorial_strategy_overrides_its_setting():
    from compaction.strategies import build as build_strategy

    messages = build(random_turns(30, seed=5))
    by_setting = replay(messages, Settings(context_limit=5_000), strategy="pipeline")
    by_param = replay(messages, Settings(), strategy=build_strategy("pipeline", {"context_limit": 5_000}))
    assert [c.as_dict() for c in by_param.calls] == [c.as_dict() for c in by_setting.calls]
    assert by_param.strategy == "pipeline"
    masked = replay(messages, Settings(keep_recent=3), strategy=build_strategy("masking", {"window": 1}))
    assert masked.calls[-1].as_dict() == replay(messages, Settings(keep_recent=1),
                                                strategy="masking").calls[-1].as_dict()
    with pytest.raises(SettingsError, match="max_messages .50. must be larger than keep_head .60."):
        build_strategy("pipeline", {"keep_head": 60})
