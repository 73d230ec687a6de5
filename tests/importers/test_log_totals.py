"""The figures a log gives of its whole run, read as its recorded side: a Gemini CLI stream-json run's
`result.stats` and `init` model, a SWE-agent trajectory's `info.model_stats`, an OpenHands run's
`metadata.llm_config.model`, `metrics.token_usages` and `metrics.accumulated_cost`. Where a log gives
only totals the replay's recorded cost and tokens are those totals, and it says so."""

import json
from pathlib import Path

import pytest

from compaction.importers import load_conversation
from compaction.replay.loop import replay

CASES = Path(__file__).parent / "cases" / "valid"
# Google's prices per million tokens (ai.google.dev/gemini-api/docs/pricing): input, cached input, output
GEMINI_PRO, GEMINI_FLASH_LITE = (1.25, 0.125, 10.0), (0.1, 0.01, 0.4)


def google_cost(prices, uncached: int, cached: int, output: int) -> float:
    return (prices[0] * uncached + prices[1] * cached + prices[2] * output) / 1e6


def test_a_stream_runs_recorded_cost_is_its_stats_priced_at_its_models():
    conversation = load_conversation(CASES / "gemini_stream_stats.jsonl")
    stats = conversation.metadata["stats"]["models"]
    pro, lite = stats["gemini-2.5-pro"], stats["gemini-2.5-flash-lite"]
    # Gemini bills the thoughts as output: total_tokens - input_tokens of each model
    expected = (google_cost(GEMINI_PRO, pro["input"], pro["cached"], pro["total_tokens"] - pro["input_tokens"])
                + google_cost(GEMINI_FLASH_LITE, lite["input"], lite["cached"],
                              lite["total_tokens"] - lite["input_tokens"]))
    totals = replay(conversation).totals
    assert totals["recorded_from_totals"] is True
    assert abs(totals["recorded_cost_usd"] - expected) <= 0.10 * expected  # the bar
    assert totals["recorded_cost_usd"] == pytest.approx(expected)  # and in fact the same figure
    assert totals["recorded_context_tokens"] == 46_870  # stats.input_tokens, where the estimate says 408
    assert totals["tokens_sent"] < 1_000
    assert "result.stats" in totals["recorded_cost_basis"]
    # the modelled calls are priced at the model that did most of the work, not at the fallback $3 / $15
    assert totals["priced_as"] == "the log's models" and totals["price_notes"] == []
    assert conversation.usage == []  # no call's own usage is made up


def test_an_older_stream_without_the_split_by_model_is_priced_at_inits_model():
    lines = [{"type": "init", "timestamp": "2025-11-03T10:00:00.000Z", "session_id": "s-1", "model": "gemini-2.5-flash"},
             {"type": "message", "timestamp": "2025-11-03T10:00:00.010Z", "role": "user", "content": "hi"},
             {"type": "message", "timestamp": "2025-11-03T10:00:01.000Z", "role": "assistant", "content": "Hello!",
              "delta": True},
             {"type": "result", "timestamp": "2025-11-03T10:00:01.100Z", "status": "success",
              "stats": {"total_tokens": 8210, "input_tokens": 8190, "output_tokens": 20, "duration_ms": 1100,
                        "tool_calls": 0}}]
    conversation = load_conversation("\n".join(json.dumps(line) for line in lines).encode(), name="run.jsonl")
    run = conversation.metadata["recorded_totals"]
    assert run["model"] == "gemini-2.5-flash" and "by_model" not in run
    assert (run["input_tokens"], run["cache_read_input_tokens"], run["output_tokens"]) == (8190, 0, 20)
    totals = replay(conversation).totals
    assert totals["recorded_cost_usd"] == pytest.approx((0.3 * 8190 + 2.5 * 20) / 1e6)


def test_stats_without_counts_say_the_cost_is_unknown():
    lines = [{"type": "init", "session_id": "s-2", "model": "gemini-2.5-pro"},
             {"type": "message", "role": "user", "content": "hi"},
             {"type": "message", "role": "assistant", "content": "Hello!", "delta": True},
             {"type": "result", "status": "error", "stats": {"duration_ms": 20}}]
    conversation = load_conversation("\n".join(json.dumps(line) for line in lines).encode(), name="run.jsonl")
    assert "recorded_totals" not in conversation.metadata
    assert [w.kind for w in conversation.warnings] == ["stats_without_counts"]
    assert replay(conversation).totals["recorded_cost_usd"] is None


def test_a_run_past_a_long_prompt_bound_is_priced_ordinary_and_said():
    lines = [{"type": "init", "session_id": "s-3", "model": "gemini-2.5-pro"},
             {"type": "message", "role": "user", "content": "go"},
             {"type": "message", "role": "assistant", "content": "done", "delta": True},
             {"type": "result", "status": "success", "stats": {"total_tokens": 900_000, "input_tokens": 880_000,
                                                               "output_tokens": 20_000, "cached": 0, "input": 880_000}}]
    totals = replay(load_conversation("\n".join(json.dumps(line) for line in lines).encode(), name="r.jsonl")).totals
    assert totals["recorded_cost_usd"] == pytest.approx(google_cost(GEMINI_PRO, 880_000, 0, 20_000))
    assert any("prompts of ordinary size" in note for note in totals["price_notes"])


def test_a_trajectorys_recorded_cost_and_tokens_are_its_model_stats():
    conversation = load_conversation(CASES / "swe_agent_model_stats.traj")
    stats = conversation.metadata["model_stats"]
    totals = replay(conversation).totals
    assert totals["recorded_from_totals"] is True
    assert abs(totals["recorded_cost_usd"] - stats["instance_cost"]) <= 0.01 * stats["instance_cost"]
    assert totals["recorded_context_tokens"] == stats["tokens_sent"]
    assert conversation.metadata["recorded_totals"]["calls"] == stats["api_calls"] == totals["calls"]
    assert totals["recorded_cost_basis"] == "the log's own cost (info.model_stats)"
    # replay_config names the model: the modelled calls are priced at it
    assert conversation.metadata["model"] == "claude-sonnet-4-20250514" and totals["price_notes"] == []


def test_an_older_trajectory_names_no_model_but_keeps_its_cost():
    conversation = load_conversation(CASES / "swe_agent_shared_observation.traj")
    totals = replay(conversation).totals
    assert totals["recorded_cost_usd"] == pytest.approx(0.02)
    assert any("names no model" in note for note in totals["price_notes"])


@pytest.mark.parametrize(("stats", "said"), [("12 dollars", "a string"), ({"instance_cost": 0, "tokens_sent": 0}, "zeros")])
def test_model_stats_without_figures_are_said(stats, said):
    value = {"history": [{"role": "user", "content": "fix it"}, {"role": "assistant", "content": "done"}],
             "info": {"model_stats": stats}}
    conversation = load_conversation(json.dumps(value).encode(), name="t.traj")
    [warning] = [w for w in conversation.warnings if w.kind == "model_stats_empty"]
    assert f"got {said}" in warning.message and "recorded_totals" not in conversation.metadata


def test_an_openhands_run_names_its_model_and_each_responses_usage_from_its_metrics():
    conversation = load_conversation(CASES / "openhands_output_metrics.jsonl")
    assert conversation.metadata["model"] == "anthropic/claude-sonnet-4-20250514"
    assert conversation.metadata["instance_id"] == "textkit__textkit-17"
    recorded = [entry for entry in conversation.usage if entry]
    # token_usages split the cache reads and writes that the model response's usage lumps into the prompt
    assert recorded[1] == {"input_tokens": 15, "cache_creation_input_tokens": 190, "cache_read_input_tokens": 6100,
                           "output_tokens": 96, "model": "anthropic/claude-sonnet-4-20250514"}
    totals = replay(conversation).totals
    assert totals["recorded_from_totals"] is False and totals["price_notes"] == []
    assert totals["recorded_totals"]["cost_usd"] == 0.0272565  # the log's own figure, shown beside
    assert totals["recorded_cost_usd"] == pytest.approx(0.0272565, rel=0.05)


def test_an_openhands_run_with_only_its_accumulated_cost_is_recorded_from_it():
    row = {"instance_id": "x-1", "metadata": {"llm_config": {"model": "openai/gpt-5"}},
           "history": [{"id": 0, "source": "user", "action": "message", "args": {"content": "hi"}},
                       {"id": 1, "source": "agent", "action": "message", "args": {"content": "Hello."}}],
           "metrics": {"accumulated_cost": 0.0125, "costs": [{"model": "openai/gpt-5", "cost": 0.0125}]}}
    totals = replay(load_conversation(json.dumps(row).encode() + b"\n", name="output.jsonl")).totals
    assert totals["recorded_from_totals"] is True and totals["recorded_cost_usd"] == 0.0125
    assert totals["recorded_context_tokens"] is None  # no tokens given


def test_a_cost_of_zero_is_no_figure():
    row = {"history": [{"id": 0, "source": "user", "action": "message", "args": {"content": "hi"}}],
           "metadata": {"llm_config": {"model": "openai/some-unpriced-model"}}, "metrics": {"accumulated_cost": 0.0}}
    conversation = load_conversation(json.dumps(row).encode() + b"\n", name="output.jsonl")
    assert "recorded_totals" not in conversation.metadata
    assert conversation.metadata["model"] == "openai/some-unpriced-model"
