"""Crush's auto-summarise (internal/agent/agent.go), worked out by hand on generated chats: the tokens left
at which it fires by window size, everything up to the newest step summarised, the person's next message
kept after the summary, `disable_auto_summarize`, and crush.json as its export."""

import json

from compaction import OutputStore, Settings, check_pairs, generate, prepare, replay
from compaction.agents import agent
from compaction.agents.crush.markers import SUMMARY_PREFIX
from compaction.agents.crush.preset import remaining_limit
from compaction.export import export
from compaction.model.markers import is_summary
from compaction.strategies import Regime, build
from tests.engine.test_peers_aider import WrittenSummary, chat


def step(messages, **params):
    return build("crush", params)(prepare(messages), Settings(), OutputStore.temporary(), WrittenSummary())


def test_twenty_thousand_left_over_200k_windows_else_a_fifth():
    assert remaining_limit(1_000_000) == 20_000 and remaining_limit(200_001) == 20_000
    assert remaining_limit(200_000) == 40_000 and remaining_limit(128_000) == 25_600


def test_it_summarises_once_the_newest_step_leaves_too_few_tokens():
    # 400 tokens an exchange: after 20 exchanges the newest reply ends at 8,000 of a 10,000 window, 2,000 left
    assert step(chat(19), window_tokens=10_000).acted == ()
    done = step(chat(20), window_tokens=10_000)
    assert done.acted == ("auto_compact",)
    sent = done.history.messages
    assert len(sent) == 2 and is_summary(sent[0]) and sent[0]["content"].startswith(SUMMARY_PREFIX)
    assert sent[1] == chat(20)[-1]  # the person's next message follows the summary


def test_the_tokens_left_can_be_set_and_summarising_turned_off():
    assert step(chat(10), window_tokens=10_000, remaining_tokens=6_000).acted == ("auto_compact",)
    assert step(chat(30), window_tokens=10_000, disable_auto_summarize=True).acted == ()


def test_replayed_on_a_long_generated_chat_it_summarises_every_time_the_window_fills():
    result = replay(chat(60), strategy=build("crush", {"window_tokens": 10_000}), summarizer=WrittenSummary())
    summarised = [record.call for record in result.calls if "auto_compact" in record.acted]
    # first at call 20; after it the summary (~30 tokens) and the new exchanges fill 8,000 again 20 calls later
    assert summarised == [20, 40]
    assert result.totals["tokens_sent"] < result.totals["raw_tokens_sent"]


def test_on_a_generated_coding_session_tool_results_stay_in_the_summarised_step():
    messages = generate("realistic", turns=120, seed=11)
    result = replay(messages, strategy=build("crush", {"window_tokens": 40_000}), keep_histories=True)
    assert any("auto_compact" in record.acted for record in result.calls)
    for record in result.calls:
        assert check_pairs(result.history(record.call).messages) == []  # no result without its call


def test_crush_json_carries_the_switch_and_says_what_cannot_be_set():
    plain = export("crush", form="crush")
    assert json.loads(plain.text)["options"] == {"disable_auto_summarize": False} and plain.filename == "crush.json"
    tuned = export("crush", {"window_tokens": 128_000, "remaining_tokens": 10_000}, form="crush")
    assert "Cannot be set in Crush" in " ".join(tuned.notes) and "context_window" in " ".join(tuned.notes)


def test_tune_sweeps_the_tokens_left_down_from_the_window_to_crushs_own():
    [knob] = agent("crush").knobs
    regime = Regime(128_000, peak_tokens=90_000, base_tokens=8_000, compacted_at=None, messages=200)
    values = knob.values(regime)
    assert knob.default(regime) == 25_600 in values and values[-1] > 100_000  # summarising early
