"""The check behind the kernel's tests: a grid's cells through the kernel, every one against the loop's own
replay of it (the reference) on one prepared conversation and one output store: the per-call records
(every field of CallRecord and of its measures, blind terms included) and the cell's measures, exactly."""

from compaction import OutputStore, prepare
from compaction.replay.context import ReplayContext
from compaction.replay.loop import incremental_form, replay
from compaction.replay.options import ReplayOptions
from compaction.strategies import STRATEGIES
from compaction.summarizers import OfflineSummarizer
from compaction.sweep.grid import SweepStore, cell_measures
from compaction.sweep.kernel import refusal
from compaction.sweep.kernel.cell import Shared, measures, run_cell
from compaction.sweep.kernel.persisted import Outside
from compaction.sweep.kernel.records import call_records


def check_grid(conversation, grid, store: OutputStore | None = None, **options) -> tuple[int, list[str]]:
    """(cells the kernel computed, each equal to the loop's; why it left the others to the loop)."""
    prepared = prepare(conversation)
    store = store or SweepStore(OutputStore.temporary().root)
    summarizer = OfflineSummarizer()
    chosen = ReplayOptions(store=store, summarizer=summarizer, keep_histories=False, **options)
    context = ReplayContext.start(prepared, "pipeline", chosen)
    refused = refusal(prepared, incremental_form(STRATEGIES["pipeline"]), summarizer)
    if refused is not None:  # the sweep leaves every cell to the loop (the person's own compactions)
        return 0, [refused] * len(grid)
    try:
        shared = Shared.of(context)
    except Outside as outside:
        return 0, [str(outside)] * len(grid)
    done, left = 0, []
    for settings in grid:
        try:
            cell = run_cell(shared, settings)
        except Outside as outside:
            left.append(str(outside))
            continue
        loop = replay(prepared, settings, options=chosen)
        assert_same_calls(call_records(shared, cell), loop.calls, settings)
        assert measures(shared, cell) == cell_measures(loop), settings
        done += 1
    return done, left


def assert_same_calls(kernel, loop, settings) -> None:
    assert len(kernel) == len(loop), settings
    for ours, theirs in zip(kernel, loop, strict=True):
        where = f"{settings}, call {theirs.call} (message {theirs.index})"
        assert ours == theirs, where
        assert ours.measures == theirs.measures, where
        assert ours.as_dict() == theirs.as_dict(), where
