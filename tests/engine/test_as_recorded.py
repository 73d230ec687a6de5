"""The "as recorded" strategy follows the log: it compacts where the agent did, keeps what the log shows
the agent kept, and every call's tokens are the ones the log recorded."""

import tempfile
from pathlib import Path

import pytest

from compaction import check_pairs, generate, load_conversation, replay
from compaction.agents.claude_code.sample_log import ClaudeCodeLog
from compaction.measures.billing import Billing
from compaction.model.calibration import recorded_context
from compaction.replay.fidelity import fidelity

LONG = Path(__file__).resolve().parents[2] / "sample_data" / "claude_code_long_session.jsonl"


def test_it_compacts_where_the_log_did_and_sends_what_the_agent_kept():
    conversation = load_conversation(LONG)
    boundaries = [b["index"] for b in conversation.metadata["compact_boundaries"]]
    result = replay(conversation, strategy="as-recorded")
    acted = [c.index for c in result.calls if "log_compaction" in c.acted]
    # the first call after each boundary is where it acted: the boundary's summary is the history's start
    assert acted == [next(c.index for c in result.calls if c.index > b) for b in boundaries]
    for record in result.calls:
        sent = result.history(record.call)
        start = max((b for b in boundaries if b <= record.index), default=0)
        assert sent.origins == list(range(start, record.index))
        assert check_pairs(sent.messages) == []
        assert record.exact and record.tokens == recorded_context(conversation.usage[record.index])
    assert result.totals["summaries"] == len(boundaries) and result.totals["parting_call"] is None
    pairs = fidelity(result).pairs
    assert [p.calls_apart for p in pairs] == [0] * len(boundaries)
    # every compaction's first call after carries what the log recorded there
    assert [p.strategy_after_tokens for p in pairs] == [p.log_after_tokens for p in pairs]
    assert [p.after_error for p in pairs] == [0.0] * len(boundaries) and all(p.trigger == "auto" for p in pairs)


def test_without_a_compaction_of_its_own_it_sends_everything():
    messages = generate("realistic", turns=30, seed=4)
    result = replay(messages, strategy="as-recorded", keep_histories=False)
    assert not any(c.acted for c in result.calls)
    assert [c.tokens for c in result.calls] == [c.raw_tokens for c in result.calls]
    assert not any(c.exact for c in result.calls)  # no usage recorded: estimated, as every strategy's


CASES = Path(__file__).resolve().parents[1] / "importers" / "cases" / "valid"


def load_conversation_text(text: str):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "session.jsonl")
        path.write_text(text, encoding="utf-8")
        return load_conversation(path)


def _assert_equal_to_the_log_call_for_call(result) -> None:
    """Every call the log records: its tokens and its cost, the compaction call apart."""
    recorded = [c for c in result.calls if c.measures.recorded]
    assert recorded
    for record in recorded:
        measures = record.measures
        assert record.tokens == measures.recorded["context_tokens"], f"call {record.call}"
        assert measures.cost_usd - measures.compaction_cost_usd == pytest.approx(measures.recorded["cost_usd"],
                                                                                 rel=1e-12), f"call {record.call}"


def test_as_recorded_is_the_log_and_its_compaction_call_a_part_apart():
    conversation = load_conversation(CASES / "codex_compaction.jsonl")
    boundary = conversation.metadata["compact_boundaries"][0]
    result = replay(conversation, strategy="as-recorded")
    _assert_equal_to_the_log_call_for_call(result)
    totals = result.totals
    assert totals["reactive"] == 0 and totals["summaries"] == 1
    assert totals["recorded_calls"] == totals["calls"] and totals["unrecorded_calls_cost_usd"] == 0
    # the agent's summary call read what its context held when it compacted (the log's preTokens)
    assert totals["compaction_calls_input_tokens"] == boundary["pre_tokens"] == 232_571
    assert totals["compaction_calls_output_tokens"] > 0
    price = Billing(conversation.usage).at(boundary["index"])
    assert totals["compaction_calls_cost_usd"] == pytest.approx(
        price.plain(232_571, totals["compaction_calls_output_tokens"]), rel=1e-12)
    assert totals["cost_usd"] - totals["compaction_calls_cost_usd"] == pytest.approx(totals["recorded_cost_usd"],
                                                                                   rel=1e-12)


@pytest.mark.parametrize("window", [None, 20_000])  # 20,000: under most of the log's calls, none compacted again
def test_a_generated_log_of_several_compactions_is_its_recorded_cost_plus_its_compaction_calls(window):
    log = ClaudeCodeLog(seed=3)
    log.session(generate("realistic", turns=200, seed=3), window=60_000)
    conversation = load_conversation_text(log.jsonl())
    assert len(conversation.metadata["compact_boundaries"]) >= 2
    options = {} if window is None else {"model_window_tokens": window}
    result = replay(conversation, strategy="as-recorded", keep_histories=False, **options)
    _assert_equal_to_the_log_call_for_call(result)
    totals = result.totals
    assert totals["reactive"] == 0
    assert window is None or totals["over_window_calls"] > 0  # sent past the window set, as the log shows
    assert totals["summaries"] == len(conversation.metadata["compact_boundaries"])
    assert totals["compaction_calls_input_tokens"] == sum(b["pre_tokens"] for b in conversation.metadata["compact_boundaries"])
    assert totals["cost_usd"] - totals["compaction_calls_cost_usd"] == pytest.approx(totals["recorded_cost_usd"],
                                                                                   rel=1e-12)


def test_a_call_the_log_records_no_usage_for_is_the_estimated_part():
    conversation = load_conversation(CASES / "claude_code_compact_boundary.jsonl")
    totals = replay(conversation, strategy="as-recorded").totals
    assert totals["recorded_cost_usd"] is None and totals["recorded_calls"] == 0
    assert totals["compaction_calls_input_tokens"] == conversation.metadata["compact_boundaries"][0]["pre_tokens"]
    assert totals["unrecorded_calls_cost_usd"] + totals["compaction_calls_cost_usd"] == pytest.approx(totals["cost_usd"])
