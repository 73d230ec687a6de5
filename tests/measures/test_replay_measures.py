"""Cost and loss over whole replays: compaction off loses nothing and keeps the cache; aggressive
settings lose more and break it; a log's recorded tokens are what the calibrated estimate says."""

import statistics
from pathlib import Path

import pytest

from compaction.importers import load_conversation
from compaction.model.calibration import recorded_context
from compaction.model.settings import LIMITS, Settings
from compaction.replay.loop import replay

SAMPLES = Path(__file__).parents[2] / "sample_data"
OFF = Settings(**{name: high for name, (low, high) in LIMITS.items()
                  if name not in ("keep_head", "reactive_keep_last")})  # every setting at its maximum
AGGRESSIVE = Settings(keep_recent=0, max_messages=10, context_limit=2_000)
WIDEST_WINDOW = 10_000_000  # the largest model window the Replay page accepts


@pytest.fixture(scope="module")
def realistic():
    return load_conversation(SAMPLES / "realistic_session.json")


def test_compaction_off_loses_nothing_and_reads_from_the_cache(realistic):
    totals = replay(realistic, OFF, model_window_tokens=WIDEST_WINDOW, keep_histories=False).totals
    assert totals["blind_references"] == 0
    assert totals["artifact_retention"] == 1.0
    assert totals["cache_hit_rate"] >= 0.9
    assert totals["cache_breaks"] == 0


def test_aggressive_settings_lose_more_and_break_the_cache(realistic):
    off = replay(realistic, OFF, model_window_tokens=WIDEST_WINDOW, keep_histories=False).totals
    aggressive = replay(realistic, AGGRESSIVE, model_window_tokens=WIDEST_WINDOW, keep_histories=False).totals
    assert aggressive["blind_references"] > off["blind_references"]
    assert aggressive["artifact_retention"] < off["artifact_retention"]
    assert aggressive["cache_hit_rate"] < off["cache_hit_rate"]
    assert aggressive["tokens_sent"] < off["tokens_sent"]  # the other side of the trade: fewer tokens


def test_the_uncompacted_line_stops_where_the_window_refuses_it(realistic):
    result = replay(realistic, model_window_tokens=100_000, keep_histories=False)
    stop = result.totals["raw_stop_call"]
    assert stop is not None and result.calls[stop].raw_tokens > 100_000 >= result.calls[stop - 1].raw_tokens
    assert result.totals["raw_tokens_sent"] == sum(c.raw_tokens for c in result.calls[:stop])
    assert all(c.raw_cost_usd == 0 for c in result.calls[stop:])


def test_every_comparison_with_no_compaction_covers_the_same_calls(realistic):
    totals = replay(realistic, model_window_tokens=100_000, keep_histories=False).totals
    stop = totals["raw_stop_call"]
    assert totals["compared_calls"] == stop < totals["calls"]
    assert totals["tokens_sent_compared"] < totals["tokens_sent"]
    assert totals["saved_share"] == 1 - totals["tokens_sent_compared"] / totals["raw_tokens_sent"]
    assert 0 < totals["saved_share"] < 1  # over the whole session against the calls before the stop it would not be
    assert totals["cost_usd_compared"] < totals["cost_usd"]


def test_the_calibrated_estimate_of_a_claude_code_log_is_within_ten_percent():
    conversation = load_conversation(SAMPLES / "claude_code_long_session.jsonl")
    result = replay(conversation, keep_histories=False)
    calibration = result.totals["calibration"]
    assert calibration["median_abs_error"] < 0.10
    first_compaction = conversation.metadata["compact_boundaries"][0]["index"]
    errors = [abs(c.raw_tokens - recorded_context(conversation.usage[c.index])) / recorded_context(conversation.usage[c.index])
              for c in result.calls if c.index < first_compaction]
    assert statistics.median(errors) < 0.10
    assert all(c.measures.recorded is not None for c in result.calls)
    check = result.totals["cache_model_check"]
    assert 0.8 < check["ratio"] < 1.2  # modelled cache reads of what the agent sent, against the log's


def test_without_usage_there_is_no_calibration_and_tokens_are_characters_over_four(realistic):
    result = replay(realistic, keep_histories=False)
    assert result.totals["calibration"] is None and result.totals["recorded_context_tokens"] is None
    first = result.calls[0]
    assert first.tokens == -(-first.chars // 4)
