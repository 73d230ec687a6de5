"""The check behind the incremental replay's equivalence tests: the incremental loop and the reference loop
(the reference, `replay(..., plain=True)`) give the same replay, call by call."""

import dataclasses

from compaction import OutputStore, prepare
from compaction.model.events import SummaryEvent
from compaction.replay.loop import replay


def replay_both(conversation, settings=None, store: OutputStore | None = None, **options):
    """(incremental, plain) replays of one prepared conversation, writing to one output store (the
    previews quote its paths)."""
    prepared = prepare(conversation)
    store = store or OutputStore.temporary()
    incremental = replay(prepared, settings, store=store, **options)
    plain = replay(prepared, settings, store=store, plain=True, **options)
    return incremental, plain


def assert_same_replay(incremental, plain) -> int:
    """Identical records (as_dict, every field, the layers' events, the measures), identical histories
    sent at every call, identical totals; the number of calls compared."""
    assert len(incremental.calls) == len(plain.calls)
    for ours, theirs in zip(incremental.calls, plain.calls, strict=True):
        assert ours.as_dict() == theirs.as_dict(), f"call {theirs.call} (message {theirs.index})"
        assert ours == theirs, f"call {theirs.call}"
        assert _untimed(ours.events) == _untimed(theirs.events), f"call {theirs.call}: events"
        assert ours.measures == theirs.measures, f"call {theirs.call}: measures"
    if plain.histories is not None:
        assert len(incremental.histories) == len(plain.histories)
        for call, (ours, theirs) in enumerate(zip(incremental.histories, plain.histories, strict=True)):
            assert ours.messages == theirs.messages, f"call {call}: messages sent"
            assert ours.sizes == theirs.sizes, f"call {call}: sizes"
            assert ours.origins == theirs.origins, f"call {call}: origins"
            assert ours.known_tokens == theirs.known_tokens, f"call {call}: recorded tokens"
            assert ours.size == len(str(ours.messages)), f"call {call}: running size"
    assert incremental.as_dict() == plain.as_dict()
    for name in ("max_checked_size", "artifact_retention", "tool_output_chars", "tool_output_whole_chars",
                 "price_notes", "cache_lifetimes", "cache_check", "boundaries"):
        assert getattr(incremental, name) == getattr(plain, name), name
    return len(plain.calls)


def _untimed(events) -> list:
    """The events with each summary's transcript path left out: it is named after the second it was written
    (and made unique in the store both replays share)."""
    return [dataclasses.replace(e, transcript_path=None) if isinstance(e, SummaryEvent) else e for e in events]
