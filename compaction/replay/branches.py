"""A sweep's cells replayed together while they have not yet differed, as one branch that splits.

All cells of a grid start as one incremental replay (at the first cell's settings). After each call,
the call's SettingsReads say which settings it read and over which range of each the call would have
done the same; the cells whose settings lie in every range stay on the branch, the others leave it as a
branch of their own, which goes on from a copy of the state before that call at one of its cells'
settings (and may split again). So cells that differ only in a setting that has not yet made a
difference (a CONTEXT_LIMIT the history never reached, a KEEP_RECENT above the number of results so
far) share the calls before it, exactly: a branch's cells get the replay each would get alone.

Branches are run depth first: the first cells are done after one pass over the conversation, and each
later branch only replays the calls after its split.
"""

import dataclasses
from collections.abc import Hashable, Iterator

from compaction.model.settings import Settings
from compaction.replay.context import ReplayContext
from compaction.replay.incremental import IncrementalReplay
from compaction.replay.records import ReplayResult


@dataclasses.dataclass
class BranchCounts:
    replays: int = 0  # branches run to the end: distinct replays
    calls: int = 0  # calls made, over all branches


def branch_replays(context: ReplayContext, form, cells: list[tuple[Hashable, Settings]],
                   counts: BranchCounts | None = None) -> Iterator[tuple[Hashable, ReplayResult]]:
    """(key, replay) of each cell as its branch ends; `form` is the strategy's incremental form."""
    counts = counts or BranchCounts()
    members = [(key, settings, form.settings(settings)) for key, settings in cells]
    stack = [(IncrementalReplay(context, members[0][1], form), members)] if members else []
    while stack:
        replay, members = stack.pop()
        while not replay.done:
            if len(members) == 1:
                counts.calls += replay.advance()
                continue
            before = replay.fork(share_records=True)
            counts.calls += replay.advance()
            agree = replay.reads.agree
            same = [member for member in members if agree(member[2])]
            if len(same) < len(members):
                others = [member for member in members if not agree(member[2])]
                stack.append((before.retarget(others[0][1]), others))
                members = same
        counts.replays += 1
        result = replay.finish()
        for key, settings, _ in members:
            yield key, result if settings == result.settings else dataclasses.replace(result, settings=settings)
