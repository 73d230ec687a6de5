"""The incremental replay gives exactly the reference loop's replay: the same records (as_dict, events,
measures) and the same histories sent at every call, on the samples, generated sessions with parallel
calls and compact calls, a generated Claude Code log (recorded usage, its own compactions), the
hand-written real-layout cases, and random conversations at random settings."""

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compaction import OutputStore, Settings
from compaction.generate import generate
from compaction.importers import load_conversation
from compaction.replay.loop import incremental_form
from compaction.strategies import REGISTRY, build, resolve

from .builders import compacted_claude_code_log
from .conv_builder import build as build_turns
from .conv_builder import random_turns, with_compact_calls
from .replay_equivalence import assert_same_replay, replay_both
from .strategies import conversations, random_settings

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
CASES = Path(__file__).resolve().parents[1] / "importers" / "cases" / "valid"
# every layer acts: L3 on the big outputs, L1 above 12 messages, L2 past 2 results, L4 over 8,000
TIGHT = Settings(context_limit=8_000, keep_recent=2, persist_threshold=5_000, max_messages=12,
                 max_bytes=50_000, preview_chars=300)
SMALL = Settings(context_limit=2_000, keep_recent=0, max_messages=5, max_bytes=0, persist_threshold=1,
                 preview_chars=0, min_placeholder_chars=0, keep_head=2, reactive_keep_last=1)
CHOICES = [(None, 200_000), (TIGHT, 200_000), (TIGHT, 3_000), (SMALL, 600)]
SAMPLE_FILES = sorted(p.name for p in SAMPLES.iterdir() if p.suffix in (".json", ".jsonl"))
CASE_FILES = sorted(p.name for p in CASES.iterdir() if not p.name.endswith(".expected.json"))


def test_the_registry_says_which_strategies_are_incremental():
    assert incremental_form(resolve("pipeline")[1]) is not None
    assert incremental_form(build("pipeline", {"keep_recent": 1})) is not None
    assert incremental_form(resolve("masking")[1]) is None  # the plain step, behind the same interface
    assert [name for name, spec in REGISTRY.items() if spec.incremental] == ["pipeline"]


@pytest.mark.parametrize("name", SAMPLE_FILES)
@pytest.mark.parametrize("chosen, window", CHOICES)
def test_samples(name, chosen, window):
    conversation = load_conversation(SAMPLES / name)
    assert assert_same_replay(*replay_both(conversation, chosen, model_window_tokens=window)) > 0


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("chosen, window", CHOICES[:3])
def test_generated_sessions_with_parallel_calls(seed, chosen, window):
    messages = generate("realistic", turns=150, seed=seed, parallel_share=0.5)
    assert sum(1 for m in messages if m["role"] == "assistant" and isinstance(m["content"], list)
               and sum(b.get("type") == "tool_use" for b in m["content"]) > 1) > 10
    assert assert_same_replay(*replay_both(messages, chosen, model_window_tokens=window)) == 150


@pytest.mark.parametrize("chosen", [None, TIGHT])
def test_compact_calls_and_huge_outputs(chosen):
    messages = build_turns(random_turns(120, seed=4, big_every=15, compact_every=9))
    assert assert_same_replay(*replay_both(messages, chosen)) > 100


def test_a_claude_code_log_with_usage_and_its_own_compactions():
    conversation = compacted_claude_code_log()
    assert conversation.metadata.get("compact_boundaries")
    for chosen, window in CHOICES[:3]:
        incremental, plain = replay_both(conversation, chosen, model_window_tokens=window)
        assert assert_same_replay(incremental, plain) > 100
        assert plain.totals["exact_calls"] > 0
    # the models alone (no recorded tokens used): both loops estimate every call the same way
    incremental, plain = replay_both(conversation, TIGHT, from_log=False)
    assert assert_same_replay(incremental, plain) > 100
    assert plain.totals["exact_calls"] == 0


def test_pipeline_with_its_own_parameters():
    messages = generate("realistic", turns=120, seed=8)
    strategy = build("pipeline", {"keep_recent": 1, "max_messages": 20, "context_limit": 12_000})
    assert assert_same_replay(*replay_both(messages, strategy=strategy)) == 120


@pytest.mark.parametrize("name", CASE_FILES)
def test_real_layout_cases(name):
    conversation = load_conversation(CASES / name)
    for chosen, window in CHOICES:
        assert_same_replay(*replay_both(conversation, chosen, model_window_tokens=window))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data(), conversations(max_turns=40), random_settings, st.sampled_from([200, 1_000, 200_000]))
def test_random_conversations_at_random_settings(data, messages, chosen, window):
    messages = with_compact_calls(data, messages)
    with tempfile.TemporaryDirectory() as root:
        assert_same_replay(*replay_both(messages, chosen, OutputStore(root), model_window_tokens=window))
