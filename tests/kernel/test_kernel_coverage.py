"""What the kernel leaves to the loop, and says so: another strategy, another summariser, the compact tool,
a tool result that is the placeholder's own text, a cell whose calls go over the model window."""

import copy

from compaction import OutputStore, Settings
from compaction.generate import generate
from compaction.layers.incremental.pipeline import IncrementalPipeline
from compaction.model.history import prepare
from compaction.model.markers import PLACEHOLDER
from compaction.replay.context import ReplayContext
from compaction.replay.options import ReplayOptions
from compaction.summarizers import OfflineSummarizer
from compaction.sweep.kernel import kernel_cells

from ..engine.conv_builder import build, random_turns

GRID = [((0, 0), Settings()), ((0, 1), Settings(context_limit=5_000, keep_recent=1))]


def reasons(conversation, form=None, summarizer=None, window: int = 200_000) -> list:
    options = ReplayOptions(store=OutputStore.temporary(), summarizer=summarizer or OfflineSummarizer(),
                            keep_histories=False, model_window_tokens=window)
    context = ReplayContext.start(prepare(conversation), "pipeline", options)
    return [(key, found is not None, reason)
            for key, _, found, reason in kernel_cells(context, form or IncrementalPipeline({}), GRID)]


def test_the_pipeline_is_covered():
    assert reasons(generate("realistic", turns=60, seed=3)) == [((0, 0), True, None), ((0, 1), True, None)]


def test_another_strategy_or_summariser_is_left_to_the_loop():
    session = generate("realistic", turns=20, seed=3)
    assert {reason for _, _, reason in reasons(session, form=object())} == {"the strategy has no columnar form"}

    class Mine(OfflineSummarizer):
        pass

    assert {reason for _, _, reason in reasons(session, summarizer=Mine())} == \
        {"the summaries are not the offline summariser's"}


def test_the_compact_tool_and_a_literal_placeholder_are_left_to_the_loop():
    compacting = build(random_turns(30, seed=2, compact_every=7))
    assert {reason for _, _, reason in reasons(compacting)} == {"the session calls the compact tool"}
    literal = copy.deepcopy(generate("realistic", turns=20, seed=3))
    result = next(block for message in literal if isinstance(message["content"], list)
                  for block in message["content"] if block.get("type") == "tool_result")
    result["content"] = PLACEHOLDER
    assert {reason for _, _, reason in reasons(literal)} == {"a tool result holds the placeholder's own text"}


def test_a_cell_over_the_model_window_is_left_to_the_loop_the_others_are_not():
    found = reasons(generate("realistic", turns=80, seed=3), window=8_000)
    assert found == [((0, 0), False, "a call goes over the model window: reactive compaction"), ((0, 1), True, None)]


def test_a_sweep_takes_the_kernels_cells_and_replays_the_others_with_the_reason():
    from compaction.replay.loop import replay
    from compaction.sweep.grid import cell_measures
    from compaction.sweep.sweeps import sweep

    session = generate("realistic", turns=80, seed=3)
    result = sweep(session, ("context_limit", [5_000, 10 ** 8]), ("keep_recent", [1]), model_window_tokens=3_000)
    assert result.by_kernel == 1 and result.replays == 1
    assert result.left_to_loop == {(0, 1): "a call goes over the model window: reactive compaction"}
    for column in (0, 1):
        alone = replay(session, result.settings_at(0, column), model_window_tokens=3_000, keep_histories=False)
        assert result.cells[0][column] == cell_measures(alone)
    assert result.as_dict()["left_to_loop"] == [[0, 1, "a call goes over the model window: reactive compaction"]]
