"""A sweep's cells replayed together while they have not yet differed, as one branch that splits.

All cells of a grid start as one incremental replay (at the first cell's settings). After each call,
the call's SettingsReads say which settings it read and over which range of each the call would have
done the same; the cells whose settings lie in every range stay on the branch, the others leave it as a
branch of their own, which goes on from a copy of the state before that call at one of its cells'
settings (and may split again). So cells that differ only in a setting that has not yet made a
difference (a CONTEXT_LIMIT the history never reached, a KEEP_RECENT above the number of results so
far) share the calls before it, and each cell gets exactly the replay it would get alone. The copy is
taken every few calls (CHECKPOINT_EVERY): a branch that leaves makes again, at its own settings, the
calls since the latest copy (at most that many; the same calls, as its cells agreed with them).

Branches are run depth first: the first cells are done after one pass over the conversation, and each
later branch only replays the calls after its split.
"""

import dataclasses
from collections.abc import Hashable, Iterator, Sequence
from typing import TypeVar

from compaction.model.settings import LIMITS, Settings
from compaction.replay.context import ReplayContext
from compaction.replay.incremental import IncrementalReplay
from compaction.replay.records import ReplayResult

# Calls between two copies of a branch's state: a copy at every call would cost more than the calls it
# saves; a branch that splits goes back to the latest copy, at most this many calls before.
CHECKPOINT_EVERY = 8
Key = TypeVar("Key", bound=Hashable)  # whatever names a cell to its caller


@dataclasses.dataclass
class BranchCounts:
    replays: int = 0  # branches run to the end: distinct replays
    calls: int = 0  # calls made, over all branches
    by_kernel: int = 0  # cells the columnar kernel computed, without a replay (compaction/sweep/kernel)
    by_threshold: int = 0  # cells of a preset's threshold run together until they part (thresholds.py)
    left_to_loop: dict = dataclasses.field(default_factory=dict)  # the other cells' keys: why the loop ran them


def branch_replays(context: ReplayContext, form, cells: Sequence[tuple[Key, Settings]],
                   counts: BranchCounts | None = None) -> Iterator[tuple[Key, ReplayResult]]:
    """(key, replay) of each cell as its branch ends; `form` is the strategy's incremental form."""
    counts = counts or BranchCounts()
    members = [(key, settings, form.settings(settings)) for key, settings in cells]
    # only the settings that differ between the cells can part them
    varying = [name for name in LIMITS if len({getattr(member[2], name) for member in members}) > 1]
    stack = [(IncrementalReplay(context, members[0][1], form), members)] if members else []
    while stack:
        replay, members = stack.pop()
        checkpoint, since = None, 0
        while not replay.done:
            if len(members) > 1 and (checkpoint is None or since == CHECKPOINT_EVERY):
                checkpoint, since = replay.checkpoint(), 0
            counts.calls += replay.advance()
            since += 1
            if len(members) > 1:
                ranges = [(name, *found) for name in varying if (found := replay.reads.ranges.get(name))]
                same = [member for member in members if _agree(member[2], ranges)]
                if len(same) < len(members):
                    others = [member for member in members if not _agree(member[2], ranges)]
                    assert checkpoint is not None  # taken above while several cells share the branch
                    # they agreed up to the call before: from the checkpoint they make again the few calls
                    # since, at their own settings (the same calls), then go their own way
                    stack.append((checkpoint.resume(others[0][1]), others))
                    members = same
        counts.replays += 1
        result = replay.finish()
        for key, settings, _ in members:
            yield key, result if settings == result.settings else dataclasses.replace(result, settings=settings)


def _agree(settings: Settings, ranges: list[tuple[str, int, int]]) -> bool:
    return all(low <= getattr(settings, name) <= high for name, low, high in ranges)
