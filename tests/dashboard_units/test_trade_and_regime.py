"""Issue 29: Pipeline's headline tells the trade (what one pass kept and lost beside what it saved, and the
summaries the loop writes against the agent's own), and the agent's regime it offers first is Tune's."""

from compaction.importers import load_conversation
from compaction.layers import message_fates, run_pipeline
from compaction.measures import pipeline_loss_of
from compaction.model import DEFAULTS, prepare
from compaction.replay import regime_context_limit, replay
from compaction.storage import OutputStore
from compaction.strategies import compaction_point
from dashboard.render import agent_regime, tune_axes
from dashboard.render.narrative import plural
from dashboard.render.trade_words import summaries_sentence, trade_sentence
from dashboard.ui import state
from tests.app.conftest import SAMPLES

LONG = SAMPLES / "claude_code_long_session.jsonl"
CASES = SAMPLES.parent / "tests" / "importers" / "cases" / "valid"
MAXIMA = {spec.field: spec.maximum for spec in state.SLIDERS}


def test_the_trade_sets_what_was_kept_and_lost_beside_the_saving(tmp_path):
    history = prepare(load_conversation(LONG))
    result = run_pipeline(history, DEFAULTS, OutputStore(tmp_path))
    fates = message_fates(result)
    sentence = trade_sentence(result, pipeline_loss_of(result))
    saved = 100 * result.saved / result.stages[0].size
    assert sentence.startswith(f"One pass saves {saved:.1f} % of the characters by keeping "
                               f"{fates.count('kept'):,} of {len(fates):,} messages whole: ")
    assert f"{fates.count('snipped'):,} dropped with no summary (L1)" in sentence
    assert "are still sent word for word." in sentence


def test_the_summaries_are_set_beside_the_agents_own():
    conversation = load_conversation(LONG)
    looped = replay(conversation, keep_histories=False)
    sentence = summaries_sentence(looped, "Claude Code")
    assert sentence == (f"Over the whole session, call by call, these settings write "
                        f"{plural(looped.totals['summaries'], 'summary')}; Claude Code wrote "
                        f"{len(looped.boundaries):,} in its log.")
    assert looped.totals["summaries"] > len(looped.boundaries) >= 1  # the tutorial's defaults summarise more often


def test_the_agents_regime_summarises_where_the_agent_compacted_and_falls_back_to_the_window():
    """Issue 37: one regime for Pipeline and Tune, its CONTEXT_LIMIT read off the replay (518,800 on this log,
    where the token model's conversion gave Pipeline 535,900: a summary at call 135, not 133)."""
    conversation = load_conversation(LONG)
    history = prepare(conversation)
    found = agent_regime.regime(history, 200_000, MAXIMA)
    assert found.point == compaction_point(history)
    assert found.values["context_limit"] == regime_context_limit(history, DEFAULTS.replace(
        max_messages=found.values["max_messages"], keep_recent=found.values["keep_recent"]), 200_000) == 518_800
    replayed = replay(conversation, DEFAULTS.replace(**found.values), keep_histories=False)
    first_after = next(call.call for call in replayed.calls if call.index > history.recorded.boundaries[0]["index"])
    assert next(call.call for call in replayed.calls if "L4" in call.acted) == first_after
    never = prepare(load_conversation(CASES / "claude_code_hook_progress_after_the_turn.jsonl"))
    fallback = agent_regime.regime(never, 200_000, MAXIMA)
    assert fallback.point is None
    assert fallback.values["context_limit"] == tune_axes.converter(never).chars("context_limit", 200_000)
    assert "never compacted in this log, so L4 waits for the model window (200,000 tokens)" in \
        agent_regime.regime_sentence(fallback, "Claude Code")


def test_plurals():
    assert [plural(1, "summary"), plural(6, "summary"), plural(2, "day"), plural(1, "message")] == \
        ["1 summary", "6 summaries", "2 days", "1 message"]
