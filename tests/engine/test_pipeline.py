"""The whole pipeline on the seed demo: the tutorial's own figures, and nothing mutated."""

import copy

import pytest

from compaction import OutputStore, Settings, prepare, run_pipeline
from compaction.generate import generate
from compaction.layers.fates import message_fates

from .builders import turns


@pytest.fixture(scope="module")
def seed_demo():
    return generate("seed-demo")


def test_reproduces_the_seed_table(seed_demo, tmp_path):
    result = run_pipeline(seed_demo, Settings(), OutputStore(tmp_path))
    table = [(s.layer, round(s.size / 1000), s.count) for s in result.stages]
    assert table[:4] == [("input", 697, 123), ("L3", 62, 123), ("L1", 26, 52), ("L2", 10, 52)]
    assert table[4][0] == "L4" and not result.summary.triggered
    for stage in result.stages:
        assert stage.size == len(str(stage.messages))  # summed per message, equal to the seed's measure
    assert result.valid and result.input_problems == []


def test_events_point_at_original_indices(seed_demo, tmp_path):
    result = run_pipeline(seed_demo, Settings(), OutputStore(tmp_path))
    [persisted] = result.persisted
    assert (persisted.index, persisted.tool_use_id, persisted.tool) == (122, "tbig", "bash")
    assert persisted.path.read_text() == seed_demo[122]["content"][0]["content"]
    [snipped] = result.snipped
    assert (snipped.start, snipped.end, snipped.count) == (3, 74, 72)
    assert [p.index for p in result.placeholders] == [2, *range(76, 118, 2)]  # the 3 newest stay whole
    assert {p.tool for p in result.placeholders} == {"read_file"}
    fates = message_fates(result)
    assert fates[122] == "persisted" and fates[10] == "snipped" and fates[76] == "placeholder"
    assert fates[:2] == ["kept"] * 2 and fates[2] == "placeholder"


def test_input_is_never_mutated(seed_demo, tmp_path):
    before = copy.deepcopy(seed_demo)
    run_pipeline(seed_demo, Settings(context_limit=1_000, keep_recent=0), OutputStore(tmp_path))
    assert seed_demo == before


def test_l4_fires_over_the_limit_and_says_why(seed_demo, tmp_path):
    result = run_pipeline(seed_demo, Settings(context_limit=5_000), OutputStore(tmp_path))
    assert result.summary.triggered and result.summary.succeeded
    assert "> CONTEXT_LIMIT 5,000" in result.summary.reason
    assert result.final.count == 1 and result.final.messages[0]["content"].startswith("[Compacted]")
    assert result.summary.transcript_path.parent == tmp_path / "transcripts"
    assert set(message_fates(result)) == {"snipped", "summarised"}


def test_rerun_on_a_prepared_history_gives_the_same_result(seed_demo, tmp_path):
    store = OutputStore(tmp_path)
    prepared = prepare(seed_demo)
    for settings in (Settings(), Settings(keep_recent=1), Settings(max_messages=200), Settings()):
        fresh = run_pipeline(copy.deepcopy(seed_demo), settings, store)
        again = run_pipeline(prepared, settings, store)
        assert [s.messages for s in fresh.stages] == [s.messages for s in again.stages]
        assert [s.size for s in fresh.stages] == [s.size for s in again.stages]


@pytest.mark.parametrize("keep_recent", [0, 1, 3, 10])
def test_lower_keep_recent_never_gives_fewer_placeholders(keep_recent, tmp_path):
    messages = turns(30, output_chars=500)
    counts = [len(run_pipeline(messages, Settings(keep_recent=k), OutputStore(tmp_path)).placeholders)
              for k in (keep_recent, keep_recent + 1)]
    assert counts[0] >= counts[1]


@pytest.mark.parametrize(("messages", "words"), [
    ([{"role": "user", "content": "a"}, {"content": "b"}], "message 1: role must be 'user' or 'assistant', got None"),
    ([{"role": ["user"], "content": "a"}], "message 0: role must be 'user' or 'assistant', got ['user']"),
    ([{"role": "system", "content": "a"}], "message 0: role must be 'user' or 'assistant', got 'system'"),
    (["hello"], "message 0: expected an object, got str"),
    ({"messages": []}, "expected a list of messages, got dict"),
])
def test_a_message_list_of_the_wrong_shape_is_named(messages, words):
    from compaction import ConversationError

    with pytest.raises(ConversationError) as raised:
        run_pipeline(messages)
    assert str(raised.value) == words


def test_l4_compares_the_messages_not_the_system_prompt_with_the_limit(tmp_path):
    from compaction import Conversation

    conversation = Conversation(turns(2), system="s" * 80_000, tools=[{"name": "bash"}])
    result = run_pipeline(conversation, Settings(), OutputStore(tmp_path))
    assert not result.summary.triggered  # 80 K of system prompt, but the messages are far under 50,000
    assert result.stages[0].history.overhead > 80_000
    assert result.final.tokens == -(-result.final.size // 4)
