"""The check behind the threshold cells' tests: a grid of an agent's preset at several thresholds run
together (compaction/sweep/thresholds.py), every cell against the loop's own replay of it (the reference)
on one prepared conversation and one output store: every field of every call record, its measures and its
events (their reasons name the cell's own threshold), and the cell's measures, exactly."""

from compaction import OutputStore, prepare
from compaction.model.settings import DEFAULTS
from compaction.replay.context import ReplayContext
from compaction.replay.loop import replay
from compaction.replay.options import ReplayOptions
from compaction.strategies import build
from compaction.summarizers import OfflineSummarizer
from compaction.sweep.branches import BranchCounts
from compaction.sweep.grid import SweepStore, cell_measures
from compaction.sweep.thresholds import shared_key, threshold_replays

from .kernel_check import assert_same_calls


def check_thresholds(conversation, preset: str, grid: list[dict], **options) -> BranchCounts:
    """Run `grid` (the preset's parameters, cell by cell) together, each cell against the loop; the counts."""
    prepared = prepare(conversation)
    chosen = ReplayOptions(store=SweepStore(OutputStore.temporary().root), summarizer=OfflineSummarizer(),
                           keep_histories=False, **options)
    built = [build(preset, params) for params in grid]
    groups: dict[tuple, list] = {}
    for number, step in enumerate(built):
        groups.setdefault(shared_key(step), []).append((number, DEFAULTS, step))
    counts = BranchCounts()
    seen = set()
    for cells in groups.values():
        context = ReplayContext.start(prepared, preset, chosen, follows_log=built[0].spec.follows_log)
        for number, together in threshold_replays(context, cells, counts):
            loop = replay(prepared, DEFAULTS, strategy=built[number], options=chosen)
            where = f"{preset} {grid[number]}"
            assert_same_calls(together.calls, loop.calls, where)
            for ours, theirs in zip(together.calls, loop.calls, strict=True):
                assert ours.events == theirs.events, f"{where}, call {ours.call}"
            assert cell_measures(together) == cell_measures(loop), where
            seen.add(number)
    assert seen == set(range(len(grid)))
    return counts
