"""Replay: the incremental agent loop matches a naive full re-run call by call, stays valid at every
call, never changes its input, and reports what acted (L4, reactive, compact tool, boundaries)."""

import copy
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compaction import (
    Conversation,
    OutputStore,
    Settings,
    check_pairs,
    estimate_tokens,
    prepare,
    run_pipeline,
)
from compaction.errors import SettingsError, SummarizerError
from compaction.generate import generate
from compaction.importers import load_conversation
from compaction.layers.compact_tool import COMPACT_TOOL, compact_calls, compact_focus
from compaction.layers.reactive import reactive_compact
from compaction.layers.summary import compact_history
from compaction.model.events import SummaryEvent
from compaction.replay.loop import replay

from .conv_builder import build, random_turns, with_compact_calls
from .strategies import conversations
from .strategies import settings as pipeline_settings

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
TIGHT = Settings(context_limit=8_000, keep_recent=2, persist_threshold=5_000, max_messages=12,
                 max_bytes=50_000, preview_chars=300)


def naive_replay(conversation, chosen: Settings, store: OutputStore, window: int) -> list[list[dict]]:
    """The agent loop written plainly: before each call, the pipeline from scratch on a plain list."""
    system, tools = (conversation.system, conversation.tools) if isinstance(conversation, Conversation) \
        else (None, [])
    messages = conversation.messages if isinstance(conversation, Conversation) else conversation
    overhead = prepare(Conversation([], system=system, tools=tools)).overhead
    carried: list[dict] = []
    sent = []
    compacting = None
    for message in messages:
        if message["role"] == "assistant":
            carried = run_pipeline(Conversation(carried, system=system, tools=tools), chosen, store).final.messages
            if estimate_tokens(len(str(carried)) + overhead) > window:
                carried = reactive_compact(carried, chosen, store=store).messages
            sent.append(carried)
        carried = carried + [message]
        if compacting and message["role"] == "user":
            carried = compact_history(carried, store=store, focus=compacting[0]).messages
        calls = compact_calls(message)
        compacting = [compact_focus(calls)] if calls else None
    return sent


def check_against_naive(conversation, chosen, window, tmp_path):
    store = OutputStore(tmp_path)  # one store for both: persisted paths in the markers are then equal
    before = copy.deepcopy(conversation)
    result = replay(conversation, chosen, store=store, model_window_tokens=window)
    assert conversation == before
    expected = naive_replay(conversation, chosen, store, window)
    assert len(result.calls) == len(expected)
    overhead = prepare(conversation).overhead
    for record, sent in zip(result.calls, expected, strict=True):
        history = result.history(record.call)
        assert history.messages == sent, f"call {record.call}"
        assert record.chars == len(str(sent)) + overhead == history.context_size
        assert history.sizes == [len(str(m)) for m in sent]
        assert check_pairs(sent) == [], f"call {record.call}"
    return result


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_matches_a_naive_rerun_with_every_layer_acting(seed, tmp_path):
    messages = build(random_turns(60, seed=seed, big_every=15, compact_every=25))
    result = check_against_naive(messages, TIGHT, 200_000, tmp_path)
    acted = {a for c in result.calls for a in c.acted}
    assert {"L3", "L1", "L2", "L4", "compact_tool"} <= acted


def test_matches_a_naive_rerun_with_reactive_compaction(tmp_path):
    messages = build(random_turns(40, seed=4, big_every=0))
    loose = TIGHT.replace(context_limit=100_000_000, max_messages=10_000, keep_recent=1_000)
    result = check_against_naive(messages, loose, 3_000, tmp_path)
    assert result.totals["reactive"] > 0


def test_matches_a_naive_rerun_with_system_prompt_and_tools(tmp_path):
    conversation = Conversation(generate("realistic", turns=40, seed=5), system="You are a coding agent. " * 40,
                                tools=[COMPACT_TOOL])
    result = check_against_naive(conversation, TIGHT, 200_000, tmp_path)
    assert prepare(conversation).overhead > 0
    assert result.calls[0].chars == len(str(conversation.messages[:1])) + prepare(conversation).overhead


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.data_too_large])
@given(st.data(), conversations(max_turns=20), pipeline_settings, st.sampled_from([200_000, 1_000, 50]))
def test_any_conversation_matches_the_naive_rerun_and_stays_valid(data, messages, chosen, window):
    messages = with_compact_calls(data, messages)
    with tempfile.TemporaryDirectory() as root:
        result = check_against_naive(messages, chosen, window, Path(root))
    assert [c.index for c in result.calls] == [i for i, m in enumerate(messages) if m["role"] == "assistant"]
    assert all(c.tokens <= window for c in result.calls if not c.over_window)


def test_records_raw_sizes_and_running_totals():
    messages = build(random_turns(30, seed=6))
    result = replay(messages, TIGHT)
    tokens_total = raw_total = 0
    for record in result.calls:
        assert record.raw_chars == len(str(messages[:record.index]))
        assert record.raw_tokens == estimate_tokens(record.raw_chars)
        assert record.tokens == estimate_tokens(record.chars)
        tokens_total += record.tokens
        raw_total += record.raw_tokens
        assert (record.tokens_total, record.raw_tokens_total) == (tokens_total, raw_total)
    totals = result.totals
    assert totals["calls"] == len(result.calls)
    assert totals["tokens_sent"] == tokens_total < totals["raw_tokens_sent"] == raw_total
    assert totals["peak_tokens"] == max(c.tokens for c in result.calls)
    assert set(result.as_dict()) >= {"calls", "totals"}


def test_summary_is_permanent_and_counted():
    messages = build(random_turns(40, seed=7))
    result = replay(messages, TIGHT.replace(max_messages=10_000, context_limit=6_000))
    fired = [c for c in result.calls if "L4" in c.acted]
    assert fired
    first = fired[0]
    # the next call starts from the summary, not from the original history
    following = result.history(first.call + 1)
    assert following.messages[0] == result.history(first.call).messages[0]
    assert following.messages[0]["content"].startswith("[Compacted]")
    assert result.calls[-1].summaries == result.totals["summaries"] == sum(
        1 for c in result.calls for e in c.events if isinstance(e, SummaryEvent) and e.succeeded)
    assert [c.summaries for c in result.calls] == sorted(c.summaries for c in result.calls)


def test_compact_tool_compacts_after_its_results():
    messages = build([([500], False), ([500, 700], True), ([400], False)])
    result = replay(messages, Settings())
    compacted = result.calls[2]  # the call after the turn with the compact call
    assert "compact_tool" in compacted.acted
    event = next(e for e in compacted.events if isinstance(e, SummaryEvent))
    assert event.reason == "the model called the compact tool"
    assert "Focus requested: the work up to step 1" in event.text
    results_index = compacted.index - 1
    assert results_index in event.summarized_indices  # its results were appended before compacting
    sent = result.history(2).messages
    assert sent[0]["content"].startswith("[Compacted]") and len(sent) == 1
    assert check_pairs(sent) == []


def test_reactive_compaction_before_a_call_over_the_window():
    messages = build(random_turns(30, seed=8, big_every=0))
    huge = Settings(context_limit=100_000_000, max_messages=10_000, keep_recent=1_000)
    assert replay(messages, huge).totals["reactive"] == 0
    result = replay(messages, huge, model_window_tokens=4_000)
    reacted = [c for c in result.calls if "reactive" in c.acted]
    assert reacted
    for record in reacted:
        assert result.history(record.call).messages[0]["content"].startswith("[Reactive compact]")
        assert record.tokens <= 4_000 or record.over_window
    assert result.totals["reactive"] == len(reacted)


def test_window_too_small_for_the_kept_tail_is_flagged():
    messages = build([([9_000], False), ([9_000], False), ([9_000], False)])
    result = replay(messages, Settings(context_limit=100_000_000, keep_recent=10), model_window_tokens=100)
    assert result.calls[-1].over_window
    assert result.totals["over_window_calls"] >= 1


def test_share_of_tool_output_seen_whole():
    messages = build([([1_000], False), ([2_000], False), ([3_000], False)])
    everything = replay(messages, Settings(keep_recent=10))
    assert everything.totals["tool_output_kept"] == 1.0
    assert everything.tool_output_chars == 6_000  # the last results are never sent: not counted
    summarised = replay(messages, Settings(context_limit=1, keep_recent=10))
    assert summarised.totals["tool_output_kept"] == 0.0  # L4 took each result before it was sent


def test_claude_code_boundaries_map_to_calls():
    conversation = Conversation(build(random_turns(10, seed=9)), metadata={"compact_boundaries": [
        {"index": 0, "trigger": "auto", "pre_tokens": 1}, {"index": 6, "trigger": "manual", "pre_tokens": 2},
        {"index": 10_000, "trigger": "auto", "pre_tokens": 3}]})
    result = replay(conversation, Settings())
    calls = [b["call"] for b in result.boundaries]
    assert calls[0] == 0 and calls[2] is None
    assert result.calls[calls[1]].index >= 6 > result.calls[calls[1] - 1].index
    assert result.boundaries[1]["trigger"] == "manual"


def test_claude_code_sample_boundary():
    conversation = load_conversation(SAMPLES / "claude_code_session.jsonl")
    result = replay(conversation, Settings())
    (boundary,) = result.boundaries
    assert boundary["index"] == conversation.metadata["compact_boundaries"][0]["index"]
    assert result.calls[boundary["call"]].index >= boundary["index"]


def test_histories_can_be_dropped():
    messages = build(random_turns(10, seed=10))
    kept = replay(messages, TIGHT)
    dropped = replay(messages, TIGHT, keep_histories=False)
    assert [c.as_dict() for c in kept.calls] == [c.as_dict() for c in dropped.calls]
    with pytest.raises(ValueError):
        dropped.history(0)


@pytest.mark.parametrize("window", [0, -5, 1.5, True])
def test_bad_model_window(window):
    with pytest.raises(SettingsError):
        replay(build([]), Settings(), model_window_tokens=window)


def test_empty_and_callless_conversations():
    assert replay([], Settings()).totals["calls"] == 0
    only_user = replay([{"role": "user", "content": "hi"}], Settings())
    assert only_user.calls == [] and only_user.totals["tool_output_kept"] is None


def test_replays_a_layer_output_as_a_conversation_of_its_own():
    messages = build(random_turns(30, seed=13))
    # L1 and L2 act, L4 does not: the output's origins point into `messages`, not 0..n-1
    stage = run_pipeline(messages, TIGHT.replace(context_limit=100_000_000)).final.history
    from_stage = replay(stage, TIGHT)
    from_list = replay(list(stage.messages), TIGHT)
    assert [c.as_dict() for c in from_stage.calls] == [c.as_dict() for c in from_list.calls]
    assert from_stage.totals == from_list.totals
    assert from_stage.tool_output_chars == from_list.tool_output_chars > 0


class FailingSummarizer:
    name = "failing"

    def summarize(self, messages, focus=None):
        raise SummarizerError("the summariser is down")


def test_a_failing_summariser_leaves_the_history_and_is_counted():
    messages = build(random_turns(20, seed=14))
    result = replay(messages, TIGHT.replace(context_limit=2_000), summarizer=FailingSummarizer())
    totals = result.totals
    assert totals["summaries"] == 0 and totals["failed_summaries"] > 0
    assert all(check_pairs(result.history(c.call).messages) == [] for c in result.calls)
