"""A sweep of an agent's preset whose compaction is a threshold on tokens (its spec's `threshold` and
`threshold_params`: an auto-compact buffer, a window, a limit): the cells that differ only in that
threshold replayed together by the reference loop while they make the same calls.

Before each call the preset's step says what it compared (Step.compared: the tokens and its threshold).
Every cell whose own threshold lies on the same side of those tokens makes the same call: the cells that
do not compact go on together; those that compact at once go on together too (the compaction, what the
agent re-attaches and the first call after are the same whatever the threshold), each keeping its own
record of that call, whose event names its own threshold (its own step on the same history makes it; a
cell whose step sends another history goes on alone). The cells on the other side leave as a branch of
their own from a copy taken before the call, and may part again. So each cell gets exactly the replay it
would get alone (tests/kernel/test_threshold_cells.py), and the calls before the cells part, and after
they compacted together, are made once.
"""

import dataclasses
from collections.abc import Hashable, Iterator, Sequence
from typing import Any, TypeVar

from compaction.model.settings import Settings
from compaction.replay.context import ReplayContext
from compaction.replay.records import CallRecord, ReplayResult
from compaction.replay.reference import ReferenceReplay
from compaction.strategies import Built
from compaction.sweep.branches import BranchCounts

Key = TypeVar("Key", bound=Hashable)


@dataclasses.dataclass(eq=False)
class _Member:
    key: Any
    settings: Settings
    step: Built
    limit: int  # its threshold on this conversation
    own: dict[int, CallRecord] = dataclasses.field(default_factory=dict)  # call -> its record where it differs


def shared_key(step: Built) -> tuple:
    """What cells must share to run together: the preset's parameters but those of its threshold."""
    moving = set(step.spec.threshold_params)
    return tuple(sorted((name, repr(value)) for name, value in step.params.items() if name not in moving))


def threshold_replays(context: ReplayContext, cells: Sequence[tuple[Key, Settings, Built]],
                      counts: BranchCounts | None = None) -> Iterator[tuple[Key, ReplayResult]]:
    """(key, replay) of each cell as its branch ends. The cells share their settings and every parameter of
    the preset (one `spec` with a `threshold`) but those of the threshold (`shared_key`)."""
    counts = counts or BranchCounts()
    prepared = context.prepared
    members = [_Member(key, settings, step, step.spec.threshold(step.params, prepared))  # type: ignore[misc]
               for key, settings, step in cells]
    stack = [(ReferenceReplay(context, members[0].settings, members[0].step), members)] if members else []
    while stack:
        replay, members = stack.pop()
        while not replay.done:
            before = replay.fork() if len(members) > 1 else None
            if not replay.advance():
                break
            counts.calls += 1
            if before is None:
                continue
            compared = replay.done_step.compared if replay.done_step is not None else None
            first = members[0]
            if compared is None:  # the step read its threshold elsewhere: every cell on its own from here
                stack += [(before.fork(m.settings, m.step), [m]) for m in members[1:]]
                members = [first]
                continue
            tokens, _ = compared
            side = tokens >= first.limit
            others = [m for m in members if (tokens >= m.limit) != side]
            if others:
                stack.append((before.fork(others[0].settings, others[0].step), others))
                members = [m for m in members if (tokens >= m.limit) == side]
            apart = _own_records(replay, members) if side else []
            if apart:  # its compaction is not the branch's: on its own, from before the call
                stack += [(before.fork(m.settings, m.step), [m]) for m in apart]
                members = [m for m in members if m not in apart]
        counts.replays += 1
        result = replay.finish()
        for member in members:
            yield member.key, _as_member(result, member)


def _own_records(replay: ReferenceReplay, members: list) -> list:
    """At a call where the cells compacted together: each cell's own step on the same history gives its
    own events (its threshold in their reason); the rest of the record is the branch's. The cells whose
    step did not send the same history (a preset whose threshold also shapes what it keeps): returned."""
    record, given, context = replay.record, replay.given, replay.context
    assert record is not None and given is not None and replay.done_step is not None
    made = replay.done_step
    apart = []
    for member in members[1:]:
        if member.limit == members[0].limit:
            continue
        done = member.step(given, member.settings, context.store, context.summarizer)
        if done.acted != made.acted or done.history.messages != made.history.messages:
            apart.append(member)
            continue
        # the call's events: the compact tool's before the step's, the loop's reactive compaction after
        start = next((i for i, event in enumerate(record.events) if made.events and event is made.events[0]),
                     len(record.events))
        events = (*record.events[:start], *done.events, *record.events[start + len(made.events):])
        member.own[record.call] = dataclasses.replace(record, events=events)
    return apart


def _as_member(result: ReplayResult, member: _Member) -> ReplayResult:
    if not member.own and member.settings == result.settings:
        return result
    calls = [member.own.get(record.call, record) for record in result.calls] if member.own else result.calls
    return dataclasses.replace(result, settings=member.settings, calls=calls)
