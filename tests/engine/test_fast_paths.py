"""The replay's shortcuts against the straightforward computation they stand for: the tutorial step
read off the layers directly (no PipelineResult), a derived history built by copying attributes, its
size remembered, and micro_compact's inlined walk over the tool results."""

import copy
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compaction import Settings, prepare
from compaction.generate import generate
from compaction.layers.micro import PLACEHOLDER, micro_compact
from compaction.layers.pipeline import run_pipeline
from compaction.model.history import History, result_positions
from compaction.model.sizes import list_size
from compaction.replay.loop import replay
from compaction.strategies import Step
from compaction.sweep.grid import SweepStore

from .builders import turns
from .conv_builder import build, random_turns, with_compact_calls
from .strategies import conversations


def step_from_pipeline_result(history, chosen, store=None, summarizer=None):
    """The tutorial step read off run_pipeline's stages, as the replay did before it read the layers."""
    result = run_pipeline(history, chosen, store, summarizer, check=False)
    acted = [stage.layer for before, stage in zip(result.stages, result.stages[1:], strict=False)
             if stage.layer != "L4" and stage.history is not before.history]
    events: list = [*result.persisted, *result.snipped, *result.placeholders]
    if result.summary.triggered:
        acted.append("L4")
        events.append(result.summary)
    return Step(result.final.history, tuple(acted), tuple(events), result.stage("L2").history.size)


def same_replays(fast, full) -> None:
    assert [c.as_dict() for c in fast.calls] == [c.as_dict() for c in full.calls]
    assert [c.events for c in fast.calls] == [c.events for c in full.calls]
    assert {**fast.totals, "strategy": None} == {**full.totals, "strategy": None}
    for record in fast.calls:
        sent = fast.history(record.call)
        assert sent.messages == full.history(record.call).messages
        assert sent.origins == full.history(record.call).origins
        assert sent.sizes == [len(str(m)) for m in sent.messages]
        assert sent.size == len(str(sent.messages))


def replay_both(messages, chosen, window=200_000):
    """Each replay with a store of its own at the same path, so persisted outputs get the same names;
    SweepStore writes no transcripts, whose names carry the time."""
    done = []
    with tempfile.TemporaryDirectory() as root:
        for strategy in ("pipeline", step_from_pipeline_result):
            folder = Path(root) / "store"
            done.append(replay(messages, chosen, store=SweepStore(folder), model_window_tokens=window, strategy=strategy))
            shutil.rmtree(folder, ignore_errors=True)
    return done


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.data_too_large])
@given(st.data(), conversations(max_turns=25), st.sampled_from([0, 1, 3]), st.sampled_from([300, 5_000, 50_000]),
       st.sampled_from([200_000, 300]))
def test_the_tutorial_step_gives_what_the_pipeline_result_gives(data, messages, keep, limit, window):
    messages = with_compact_calls(data, messages)
    before = copy.deepcopy(messages)
    chosen = Settings(keep_recent=keep, context_limit=limit, max_messages=8, keep_head=2,
                      max_bytes=2_000, persist_threshold=1_000)
    same_replays(*replay_both(messages, chosen, window))
    assert messages == before


def test_the_tutorial_step_on_generated_sessions_with_every_layer_acting():
    session = generate("realistic", turns=150, parallel_share=0.4, seed=5)
    chosen = Settings(context_limit=8_000, keep_recent=2, max_messages=12, max_bytes=3_000, persist_threshold=2_000)
    fast, full = replay_both(session, chosen)
    same_replays(fast, full)
    acted = {a for c in fast.calls for a in c.acted}
    assert {"L1", "L2", "L4"} <= acted
    hand_made = build(random_turns(60, seed=3, big_every=7))
    fast, full = replay_both(hand_made, Settings(context_limit=4_000, max_bytes=1_000, persist_threshold=500))
    same_replays(fast, full)
    assert "L3" in {a for c in fast.calls for a in c.acted}


def test_a_derived_history_is_the_one_built_whole():
    prepared = prepare(turns(4, output_chars=300))
    prepared.pair_problems()  # the source's check must not travel to a history of other messages
    assert prepared.size == len(str(prepared.messages))
    messages, sizes, origins = prepared.messages[:3], prepared.sizes[:3], prepared.origins[:3]
    derived = prepared.derive(messages, sizes, origins)
    whole = History(messages, sizes, origins, prepared.prepared, prepared.run)
    assert derived == whole and derived.run is whole.run is prepared.run
    assert derived.size == list_size(sizes) == len(str(messages)) < prepared.size
    assert derived.pair_problems() == [] and prepared.pair_problems() == []
    assert prepared.start().run is not prepared.run and prepared.start().prepared is prepared.prepared


def full_scan_results(history):
    """Every tool result newest first, through the History's own helpers."""
    return [(position, j, history.is_original(position))
            for position in range(len(history.messages) - 1, -1, -1)
            for j in reversed(result_positions(history, position))]


def test_micro_compact_walks_the_results_as_the_history_helpers_list_them():
    from compaction.layers.micro import _results_newest_first

    session = build(random_turns(40, seed=9, big_every=5))
    history = prepare(session)
    assert list(_results_newest_first(history)) == full_scan_results(history)
    once = micro_compact(history, Settings(keep_recent=2)).history  # copies: not the original's objects
    walked = list(_results_newest_first(once))
    assert walked == full_scan_results(once)
    assert any(not untouched for _, _, untouched in walked) and any(untouched for _, _, untouched in walked)
    replaced = [once.messages[p]["content"][j]["content"] for p, j, untouched in walked if not untouched]
    assert PLACEHOLDER in replaced  # a copied message holds the placeholders (and may keep newer results)
