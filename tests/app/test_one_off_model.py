"""Issue 37: a Codex rollout with a one-off turn on another model (80 calls of gpt-5.4, whose turns report
model_context_window 258,400, and one of gpt-5.3-codex-spark, 121,600) keeps its main model's window,
272,000: Replay does not stop it at the small model's window, Tune's grid and its export name 272,000 and
244,800 (the limit Live says Codex compacts at), and the one call on the small model is replayed against
that model's own window, which the page says."""

import dataclasses
import json
import tomllib

import pytest

from compaction.cli import main as cli
from compaction.importers import load_conversation
from compaction.live.follower import Follower
from compaction.replay import replay
from tests.live.growing import calls

from .codex_rollout import write_rollout
from .conftest import open_page
from .test_tune_agent import tune_on, values_box

SPARK = "gpt-5.3-codex-spark"
CASE = "tests/importers/cases/valid/codex_one_off_model.jsonl"


@pytest.fixture(scope="module")
def rollout(tmp_path_factory):
    return write_rollout(tmp_path_factory.mktemp("one-off") / "rollout-2026-05-11T08-02-10-019e1a40.jsonl",
                         calls=81, output_chars=10_000, model="gpt-5.4", one_off=(20, SPARK, 121_600))


def test_the_session_takes_its_main_models_window_and_the_one_off_call_its_own(rollout):
    conversation = load_conversation(rollout)
    assert conversation.metadata["model_window_tokens"] == 272_000  # was 128,000: the spark turn's
    assert conversation.metadata["model_windows_tokens"] == {"gpt-5.4": 272_000, SPARK: 128_000}
    result = replay(conversation, keep_histories=False)
    assert result.model_window_tokens == 272_000
    assert result.raw_stop_call is None and result.calls[-1].raw_tokens > 200_000  # never over 272,000
    [own] = result.call_windows
    assert (own.model, own.tokens, [c.call for c in result.calls if c.index == own.index]) == (SPARK, 128_000, [20])


def test_a_call_over_its_own_models_window_is_compacted_there():
    conversation = load_conversation(CASE)
    small = dataclasses.replace(conversation, metadata={**conversation.metadata,
                                                          "model_windows_tokens": {"gpt-5.4": 272_000, SPARK: 1_000}})
    result = replay(small, keep_histories=False)
    spark = [c.call for c in result.calls if c.index in {w.index for w in result.call_windows}]
    assert spark == [2, 3]
    # only the calls on the small model are over their window: compacted, or sent over it with too little to compact
    assert [c.call for c in result.calls if "reactive" in c.acted or c.over_window] == [2, 3]
    assert not result.calls[4].over_window and result.calls[4].tokens > 1_000
    assert result.raw_stop_call == 2 and result.model_window_tokens == 272_000


def test_replay_says_which_call_ran_on_another_model(rollout):
    at = open_page(tune_on(rollout), "replay")
    assert not at.exception and not at.error
    text = " ".join(element.value for element in at.markdown)
    assert "stops at call" not in text
    assert "every one of the 81 calls fits the model window of 272,000 tokens" in text
    assert (f"Call 21 ran on {SPARK} (a window of 128,000 tokens): it is replayed against its own model's window, "
            "the other calls against the session's 272,000.") in text


def test_tune_sweeps_and_exports_the_main_models_window(rollout):
    at = tune_on(rollout)
    limits = [int(text) for text in values_box(at, "auto_compact_token_limit").value.split(", ")]
    assert limits[-1] == 244_800
    [config] = [block.value for block in at.code if block.value.startswith("# Codex CLI")]
    keys = tomllib.loads(config)
    assert keys["model_context_window"] == 272_000 and keys["model_auto_compact_token_limit"] == 244_800


def test_live_compacts_where_replay_and_tune_do(rollout):
    follower = Follower(rollout)
    reported = follower.poll()
    thresholds = [item.forecast.threshold for item in calls(reported)]
    assert len(thresholds) == 81 and thresholds[-1] == 244_800


def test_the_command_line_names_the_call_on_another_model(capsys):
    assert cli.main(["replay", CASE, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["model_window"]["tokens"] == data["totals"]["model_window_tokens"] == 272_000
    assert data["calls_on_other_models"] == [{"call": 3, "model": SPARK, "window_tokens": 128_000},
                                             {"call": 4, "model": SPARK, "window_tokens": 128_000}]


def test_live_keeps_the_main_models_window_through_a_one_off_last_turn(tmp_path):
    """The one-off turn is the newest: Live's forecast stays at the main model's 244,800, as Replay's."""
    path = write_rollout(tmp_path / "rollout-2026-05-11T09-00-00-019e1a41.jsonl", calls=30, output_chars=10_000,
                         model="gpt-5.4", one_off=(29, SPARK, 121_600))
    thresholds = [item.forecast.threshold for item in calls(Follower(path).poll())]
    assert len(thresholds) == 30 and set(thresholds) == {244_800}
    assert replay(load_conversation(path), keep_histories=False).model_window_tokens == 272_000
