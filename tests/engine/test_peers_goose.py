"""Goose's auto-compaction (context_mgmt/mod.rs), worked out by hand on generated chats: past 0.8 of the
context limit everything is summarised, Goose's notice and a copy of the person's newest message follow,
a threshold of 0 or 1 never compacts, and config.yaml carries the threshold."""

import yaml

from compaction import OutputStore, Settings, check_pairs, generate, prepare, replay
from compaction.agents import agent
from compaction.agents.goose.markers import CONVERSATION_CONTINUATION, TOOL_LOOP_CONTINUATION
from compaction.export import export
from compaction.model.markers import is_summary
from compaction.strategies import Regime, build
from tests.engine.test_peers_aider import WrittenSummary, chat


def step(messages, **params):
    return build("goose", params)(prepare(messages), Settings(), OutputStore.temporary(), WrittenSummary())


def test_it_compacts_once_the_newest_call_passes_the_threshold():
    # 400 tokens an exchange and 20 for the request: 19 exchanges end at 7,620 of 10,000, 20 at 8,020 (past 0.8)
    assert step(chat(19), window_tokens=10_000).acted == ()
    done = step(chat(20), window_tokens=10_000)
    assert done.acted == ("auto_compact",)
    summary, notice, copy = done.history.messages
    assert is_summary(summary) and notice == {"role": "assistant", "content": CONVERSATION_CONTINUATION}
    assert copy == chat(20)[-1]


def test_in_a_tool_loop_the_person_s_newest_message_is_copied_after_the_notice():
    messages = generate("realistic", turns=40, seed=3)
    cut = next(i for i in range(len(messages) - 1, 0, -1) if messages[i]["role"] == "user"
               and isinstance(messages[i]["content"], list)
               and any(b.get("type") == "tool_result" for b in messages[i]["content"]))
    done = step(messages[:cut + 1], window_tokens=1_000)
    assert done.acted == ("auto_compact",)
    sent = done.history.messages
    assert sent[1] == {"role": "assistant", "content": TOOL_LOOP_CONTINUATION} and sent[-1]["role"] == "user"
    assert check_pairs(sent) == []


def test_a_threshold_of_zero_or_one_never_compacts():
    assert step(chat(30), window_tokens=10_000, threshold=0.0).acted == ()
    assert step(chat(30), window_tokens=10_000, threshold=1.0).acted == ()
    assert step(chat(10), window_tokens=10_000, threshold=0.3).acted == ("auto_compact",)


def test_replayed_on_a_long_chat_it_compacts_each_time_the_window_fills():
    result = replay(chat(60), strategy=build("goose", {"window_tokens": 10_000}), summarizer=WrittenSummary())
    assert [record.call for record in result.calls if "auto_compact" in record.acted][0] == 20


def test_config_yaml_carries_the_threshold():
    exported = export("goose", {"threshold": 0.6}, form="goose")
    assert yaml.safe_load(exported.text) == {"GOOSE_AUTO_COMPACT_THRESHOLD": 0.6} and exported.filename == "config.yaml"
    assert "Goose's own default" in " ".join(export("goose", form="goose").notes)


def test_tune_sweeps_the_threshold_up_to_its_default():
    [knob] = agent("goose").knobs
    regime = Regime(200_000, peak_tokens=120_000, base_tokens=9_000, compacted_at=None, messages=150)
    values = knob.values(regime)
    assert knob.default(regime) == 0.8 and values[-1] == 0.8 and values[0] < 0.3
