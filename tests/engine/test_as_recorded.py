"""The "as recorded" strategy follows the log: it compacts where the agent did, keeps what the log shows
the agent kept, and every call's tokens are the ones the log recorded."""

from pathlib import Path

from compaction import check_pairs, generate, load_conversation, replay
from compaction.measures.fidelity import fidelity
from compaction.model.calibration import recorded_context

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
