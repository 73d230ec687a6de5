"""A strategy that acts on no call sends exactly what no compaction sends: at parameters where it
cannot act, every record's characters, tokens and cost are the uncompacted side's, on random Claude Code
logs with recorded usage (some calls without), cache expiries and the log's own compactions."""

import dataclasses
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compaction import OutputStore
from compaction.agents.claude_code.sample_log import ClaudeCodeLog
from compaction.generate import generate
from compaction.importers import load_conversation
from compaction.model.settings import LIMITS, Settings
from compaction.replay.loop import replay
from compaction.strategies import REGISTRY, build

from .peer_params import IDLE

# every setting at its largest (the tutorial's strategies read them): nothing is ever over a threshold
OFF = Settings(**{name: high for name, (low, high) in LIMITS.items() if name not in ("keep_head", "reactive_keep_last")})
WIDE = 1_000_000_000  # no call is over the model window: no reactive compaction either
NAMES = list(REGISTRY)


def test_every_strategy_has_idle_parameters():
    assert set(IDLE) == set(REGISTRY)


@st.composite
def logs(draw):
    """A generated session written as a Claude Code log (its own compactions where it passes the window
    drawn), loaded back, with the usage of some calls dropped as some logs leave it out and a pause or
    two long enough for the cache to expire."""
    seed = draw(st.integers(0, 10_000))
    log = ClaudeCodeLog(seed=seed)
    window = draw(st.sampled_from([40_000, 80_000, 1_000_000]))
    log.session(generate("realistic", turns=draw(st.integers(5, 60)), seed=seed,
                         parallel_share=draw(st.sampled_from([0.0, 0.4]))), window=window)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "session.jsonl")
        path.write_text(log.jsonl(), encoding="utf-8")
        conversation = load_conversation(path)
    dropped = draw(st.sets(st.integers(0, len(conversation.usage) - 1), max_size=4)) if conversation.usage else set()
    usage = [None if index in dropped else entry for index, entry in enumerate(conversation.usage)]
    paused = draw(st.sets(st.integers(0, len(conversation.timestamps) - 1), max_size=2)) \
        if conversation.timestamps else set()
    times = [_later(time, hours=sum(1 for p in paused if p <= index)) for index, time in enumerate(conversation.timestamps)]
    return dataclasses.replace(conversation, usage=usage, timestamps=times)


def _later(time: str | None, hours: int) -> str | None:
    if time is None or not hours:
        return time
    return (datetime.fromisoformat(time.replace("Z", "+00:00")) + timedelta(hours=hours)).isoformat()


def assert_sends_what_no_compaction_sends(result) -> None:
    assert not any(record.acted for record in result.calls), "the parameters let it act"
    for record in result.calls:
        assert (record.chars, record.tokens) == (record.raw_chars, record.raw_tokens), f"call {record.call}"
        assert record.measures.cost_usd == record.raw_cost_usd, f"call {record.call}: cost"
    totals = result.totals
    assert totals["tokens_sent_compared"] == totals["raw_tokens_sent"]
    assert totals["cost_usd_compared"] == totals["raw_cost_usd"]
    assert totals["peak_tokens"] == totals["raw_peak_tokens"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(conversation=logs(), plain=st.booleans())
@pytest.mark.parametrize("name", NAMES)
def test_a_strategy_that_cannot_act_sends_what_no_compaction_sends(name, conversation, plain):
    if name == "as-recorded" and conversation.metadata.get("compact_boundaries"):
        conversation = dataclasses.replace(conversation, metadata={**conversation.metadata, "compact_boundaries": []})
    with tempfile.TemporaryDirectory() as root:
        result = replay(conversation, OFF, strategy=build(name, IDLE[name]), store=OutputStore(root),
                        model_window_tokens=WIDE, keep_histories=False, plain=plain)
    assert_sends_what_no_compaction_sends(result)
