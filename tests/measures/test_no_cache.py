"""Issue 37: a log that records no cache use (an OpenHands run without prompt caching) is priced without a
cache on every side: no strategy reads from a cache, in the loop or in a sweep's columns, and each call
costs what it costs without caching. A log that did cache keeps its cache."""

from pathlib import Path

import pytest

import compaction.agents  # noqa: F401 (the agents register their presets)
from compaction.importers import load_conversation
from compaction.measures.billing import NO_CACHE, Billing
from compaction.model import DEFAULTS
from compaction.replay import replay
from compaction.strategies import REGISTRY
from compaction.sweep import sweep_stream

from .openhands_no_cache import write_instance

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"


@pytest.fixture(scope="module")
def uncached(tmp_path_factory):
    return load_conversation(write_instance(tmp_path_factory.mktemp("openhands") / "output.jsonl"))


def test_the_log_says_its_agent_used_no_cache(uncached):
    assert Billing(uncached.usage).log_lifetime == NO_CACHE
    assert Billing(load_conversation(SAMPLES / "claude_code_session.jsonl").usage).log_lifetime == "5m"


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_no_strategy_reads_from_a_cache(uncached, name):
    totals = replay(uncached, strategy=name, keep_histories=False).totals
    assert totals["cache_read_tokens"] == 0 and not totals["cache_hit_rate"]
    assert totals["cost_usd"] == pytest.approx(totals["cost_usd_no_cache"])


def test_a_sweep_prices_its_cells_as_the_loop_does(uncached):
    values = (20_000, 60_000)
    *_, result = sweep_stream(uncached, ("context_limit", values), ("keep_recent", (1, 3)), DEFAULTS,
                              measure="cost_usd")
    for row, keep in enumerate((1, 3)):
        for column, limit in enumerate(values):
            loop = replay(uncached, DEFAULTS.replace(context_limit=limit, keep_recent=keep), keep_histories=False)
            assert result.cells[row][column]["cost_usd"] == pytest.approx(loop.totals["cost_usd"])
            assert loop.totals["cache_read_tokens"] == 0


def test_the_saving_is_like_for_like(uncached):
    """The pipeline's saving against no compaction: with a cache modelled that the agent never had, the
    cheaper side read from it; without it, the saving is the tokens' own."""
    totals = replay(uncached, keep_histories=False).totals
    assert totals["cost_usd_compared"] / totals["raw_cost_usd"] == pytest.approx(
        totals["tokens_sent_compared"] / totals["raw_tokens_sent"], rel=0.05)


def test_a_log_that_cached_still_reads_its_cache():
    totals = replay(load_conversation(SAMPLES / "claude_code_session.jsonl"), keep_histories=False).totals
    assert totals["cache_read_tokens"] > 0


def test_the_pages_say_it_is_priced_without_a_cache(uncached):
    from dashboard.render.price_words import priced_sentence

    result = replay(uncached, keep_histories=False)
    assert result.totals["cache_lifetimes"] == [NO_CACHE]
    assert "no prompt cache, as its log records none" in priced_sentence(result)
