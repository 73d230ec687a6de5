"""Invariants of every layer over generated conversations (issue: valid in, valid out)."""

import copy
import os
import tempfile

from hypothesis import HealthCheck, given, settings

from compaction import OutputStore, check_pairs, run_pipeline
from compaction.layers.reactive import reactive_compact

from .strategies import conversations
from .strategies import settings as pipeline_settings

# CI runs many more examples than a quick local run (the hardening issue asks for thousands).
EXAMPLES = int(os.environ.get("PROPERTY_EXAMPLES", "2000" if os.environ.get("CI") == "true" else "300"))
PROFILE = settings(max_examples=EXAMPLES, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@PROFILE
@given(conversations(), pipeline_settings)
def test_every_stage_is_valid_and_nothing_is_mutated(messages, chosen):
    assert check_pairs(messages) == []
    before = copy.deepcopy(messages)
    with tempfile.TemporaryDirectory() as root:
        check_one_run(messages, before, chosen, OutputStore(root))


def check_one_run(messages, before, chosen, store):
    result = run_pipeline(messages, chosen, store)
    assert messages == before
    for stage in result.stages:
        assert check_pairs(stage.messages) == [], stage.layer
        assert stage.size == len(str(stage.messages)), stage.layer
    for event in result.persisted:
        block = next(b for b in messages[event.index]["content"] if b.get("tool_use_id") == event.tool_use_id)
        original = block["content"]
        text = original if isinstance(original, str) else "\n".join(b["text"] for b in original)
        assert store.matches(store.find(event.tool_use_id), text)
    after_l1 = result.stage("L1").history
    kept = [o for o in after_l1.origins if o is not None]
    snipped = [i for s in result.snipped for i in s.indices]
    assert sorted(kept + snipped) == list(range(len(messages)))
    return result


@PROFILE
@given(conversations(max_turns=12))
def test_reactive_compaction_keeps_pairs(messages):
    with tempfile.TemporaryDirectory() as root:
        out = reactive_compact(messages, store=OutputStore(root))
    assert check_pairs(out.messages) == []
