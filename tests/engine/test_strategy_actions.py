"""Each strategy declares the actions its steps record (spec.actions), so legends, lanes and totals have a
title for every one: a replay of every strategy on aggressive settings records only declared names."""

from compaction import Settings, generate
from compaction.replay.loop import replay
from compaction.strategies import REGISTRY, all_actions
from compaction.strategies.actions import LOOP_ACTIONS

AGGRESSIVE = Settings(context_limit=4_000, keep_recent=1, persist_threshold=2_000, max_messages=12, max_bytes=0)


def test_every_recorded_action_is_declared_by_its_strategy():
    conversation = generate("realistic", turns=60, seed=3, parallel_share=0.3, max_output=40_000)
    loop = {action.name for action in LOOP_ACTIONS}
    seen = set()
    for name, spec in REGISTRY.items():
        declared = {action.name for action in spec.actions} | loop
        result = replay(conversation, AGGRESSIVE, strategy=name, model_window_tokens=8_000, keep_histories=False)
        recorded = {action for call in result.calls for action in call.acted}
        assert recorded <= declared, f"{name} records {sorted(recorded - declared)} without declaring them"
        seen |= recorded
    assert seen <= set(all_actions()) and {"L4", "reactive", "summary", "mask"} <= seen  # the settings made them act


def test_every_action_has_a_title_and_one_name():
    assert all(action.title and action.name == name for name, action in all_actions().items())
