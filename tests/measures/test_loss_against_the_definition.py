"""The fast blind-reference check (occurrence index, lookups per term) against the plain definition,
read straight off each call's history: a term the response uses, seen earlier in the conversation, and
found nowhere in the text of what the call sends."""

from pathlib import Path

import pytest

from compaction.generate import generate
from compaction.importers import load_conversation
from compaction.measures.meter import term_index
from compaction.measures.terms import visible_text
from compaction.model.history import prepare
from compaction.model.settings import Settings
from compaction.replay.loop import replay

SAMPLES = Path(__file__).parents[2] / "sample_data"


def _plain_blind(index, response: int, history) -> tuple[str, ...]:
    sent_text = [visible_text(m) for m in history.messages]
    return tuple(sorted(term for term in index.response_terms.get(response, ())
                        if index.first_seen(term) is not None and index.first_seen(term) < response
                        and not any(term in text for text in sent_text)))


@pytest.mark.parametrize(("source", "strategy", "settings"), [
    ("claude_code_long_session.jsonl", "pipeline", Settings()),
    ("realistic_session.json", "pipeline", Settings(keep_recent=0, max_messages=10, context_limit=2_000)),
    ("realistic_session.json", "masking", Settings(keep_recent=2)),
    ("generated", "summary_keep_last", Settings(context_limit=20_000)),
])
def test_blind_references_match_the_definition(source, strategy, settings):
    conversation = (generate("realistic", turns=120, parallel_share=0.4, seed=3) if source == "generated"
                    else load_conversation(SAMPLES / source))
    prepared = prepare(conversation)
    result = replay(prepared, settings, strategy=strategy)
    index = term_index(prepared)
    for record in result.calls:
        assert record.blind_references == _plain_blind(index, record.index, result.history(record.call)), record.call
    assert result.totals["blind_references"] > 0
