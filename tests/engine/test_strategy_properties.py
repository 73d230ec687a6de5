"""Every strategy of the registry, at its defaults and at thresholds that make it act: valid tool pairs
in every request, its input never changed, sizes exact, over the bundled samples, generated sessions
with many parallel calls, and random conversations."""

import copy
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compaction import OutputStore, Settings, check_pairs
from compaction.generate import generate
from compaction.importers import load_conversation
from compaction.replay.loop import replay
from compaction.strategies import REGISTRY, build

from .conv_builder import with_compact_calls
from .peer_params import TIGHT, guarded, with_thinking
from .strategies import conversations

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "sample_data").glob("*.json*"))
NAMES = list(REGISTRY)


def test_every_strategy_has_tight_parameters():
    assert set(TIGHT) == set(REGISTRY)


@pytest.mark.parametrize("name", NAMES)
def test_every_request_is_valid_over_the_bundled_samples(name, tmp_path):
    for sample in SAMPLES:
        conversation = load_conversation(sample)
        assert check_pairs(conversation.messages) == [], sample.name
        before = copy.deepcopy(conversation.messages)
        for params in ({}, TIGHT[name]):
            step = build(name, params)
            # the long realistic sample is checked after the replay: guarding each call would copy it 500 times
            checked = step if sample.name.startswith("realistic") else guarded(step)
            result = replay(conversation, Settings(), store=OutputStore(tmp_path), strategy=checked)
            for record in result.calls:
                assert check_pairs(result.history(record.call).messages) == [], (sample.name, params, record.call)
        assert conversation.messages == before, sample.name


@pytest.mark.parametrize("name", NAMES)
def test_every_request_is_valid_over_sessions_with_parallel_calls(name, tmp_path):
    # server compaction cannot trigger under 50,000 tokens: its sessions are larger, under a larger window
    big = name == "anthropic-compact"
    for seed in (1, 2):
        messages = with_thinking(generate("realistic", turns=70, seed=seed, parallel_share=0.6,
                                          typical_output=4_000 if big else 600, max_output=30_000 if big else 12_000))
        before = copy.deepcopy(messages)
        result = replay(messages, Settings(), store=OutputStore(tmp_path), model_window_tokens=200_000 if big else 20_000,
                        strategy=guarded(build(name, TIGHT[name])))
        assert messages == before
        acted = {action for record in result.calls for action in record.acted}
        if name != "as-recorded":  # it acts only where a log compacted itself (test_as_recorded.py)
            assert acted - {"reactive"}, f"{name} never acted: the tight parameters should make it"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), messages=conversations(max_turns=20), window=st.sampled_from([200_000, 400]))
@pytest.mark.parametrize("name", NAMES)
def test_every_request_is_valid_over_random_conversations(name, data, messages, window):
    messages = with_thinking(with_compact_calls(data, messages), every=data.draw(st.sampled_from([1, 3])))
    params = data.draw(st.sampled_from([{}, TIGHT[name]]))
    before = copy.deepcopy(messages)
    with tempfile.TemporaryDirectory() as root:
        replay(messages, Settings(), store=OutputStore(root), model_window_tokens=window,
               strategy=guarded(build(name, params)))
    assert messages == before


def from_scratch(step):
    """`step` with nothing remembered from earlier calls (strategies/memo.py)."""
    def run(history, settings, store=None, summarizer=None):
        history.run.memo.clear()
        return step(history, settings, store, summarizer)
    run.__name__ = step.__name__
    return run


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), messages=conversations(max_turns=25))
@pytest.mark.parametrize("name", NAMES)
def test_what_a_strategy_remembers_between_calls_changes_no_request(name, data, messages):
    messages = with_thinking(with_compact_calls(data, messages), every=2)
    step = build(name, TIGHT[name])
    with tempfile.TemporaryDirectory() as root:
        store = OutputStore(root)
        remembered = replay(messages, Settings(), store=store, strategy=step)
        fresh = replay(messages, Settings(), store=store, strategy=from_scratch(step))
    assert [c.as_dict() for c in remembered.calls] == [c.as_dict() for c in fresh.calls]
    for record in remembered.calls:
        assert remembered.history(record.call).messages == fresh.history(record.call).messages
