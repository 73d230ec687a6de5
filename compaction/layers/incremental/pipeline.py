"""The tutorial's pipeline as an incremental replay runs it: L3 -> L1 -> L2 -> (L4 over CONTEXT_LIMIT) on
the running history, in place, reading its settings through the call's SettingsReads.

- L3 looks at the newest message only, as the plain layer does;
- L1 works out its cut from the few messages around the two bounds and cuts the lists in place;
- L2 walks only the results near the window (window.py);
- L4 compares the running size with CONTEXT_LIMIT and, when it fires, summarises a snapshot (rare) and
  starts the running history again from the summary.

What acted, the records and the size compared with CONTEXT_LIMIT are those of `pipeline_step` on the
same history (strategies/tutorial.py).
"""

from dataclasses import dataclass

from compaction.layers.incremental.window import replace_old_results
from compaction.layers.persist import persist_largest, result_lengths
from compaction.layers.pipeline import l4_reason
from compaction.layers.snip import cut_between, marker_size, snip_range
from compaction.layers.summary import compact_history
from compaction.model.messages import tool_result_positions
from compaction.model.reads import SettingsReads
from compaction.model.running import RunningHistory
from compaction.model.settings import Settings
from compaction.model.sizes import message_size
from compaction.storage.outputs import OutputStore
from compaction.summarizers import Summarizer


@dataclass(frozen=True)
class CallDone:
    """What an incremental step did before one call (the incremental side of strategies.Step)."""

    acted: tuple[str, ...] = ()
    events: tuple = ()
    checked_size: int | None = None
    summarised: bool = False  # a summary was tried (the loop then counts those written)


def budget_newest(running: RunningHistory, reads: SettingsReads, store: OutputStore) -> list:
    """L3 on the newest message: its largest results saved to disk while they total more than max_bytes."""
    if not running.messages:
        return []
    last = len(running.messages) - 1
    message, origin = running.messages[last], running.origins[last]
    untouched = origin is not None and message is running.originals[origin]
    positions = running.result_blocks.positions(origin) if untouched and origin is not None \
        else tool_result_positions(message)
    if not positions:
        return []
    lengths, total = result_lengths(message, positions)
    if reads.at_least("max_bytes", total):
        return []
    for name in ("max_bytes", "persist_threshold", "preview_chars"):
        reads.value(name)  # how much is saved, and the preview left, depend on each
    done = persist_largest(message, lengths, total, origin, running.tool_name, reads.settings, store)
    if done is None:
        return []
    new_message, events = done
    running.replace(last, new_message, message_size(new_message))
    return events


def snip_middle(running: RunningHistory, reads: SettingsReads) -> list:
    """L1: above max_messages, the middle becomes one marker, never splitting a tool pair."""
    count = len(running.messages)
    if reads.at_least("max_messages", count):
        return []
    max_messages, keep_head = reads.value("max_messages"), reads.value("keep_head")
    head_end, tail_start = cut_between(count, keep_head, max_messages - keep_head, running.uses.__getitem__,
                                       running.answers.__getitem__)
    if head_end >= tail_start:
        return []
    marker, event = snip_range(running.sizes, running.origins, head_end, tail_start)
    running.cut(head_end, tail_start, marker, marker_size(tail_start - head_end), event.indices)
    return [event]


def pipeline_call(running: RunningHistory, reads: SettingsReads, store: OutputStore,
                  summarizer: Summarizer) -> CallDone:
    """L3 -> L1 -> L2 -> (L4) before one call."""
    acted: list[str] = []
    events: list = []
    for layer, done in (("L3", budget_newest(running, reads, store)), ("L1", snip_middle(running, reads)),
                        ("L2", replace_old_results(running, reads))):
        if done:
            acted.append(layer)
            events += done
    size = running.size
    if reads.at_least("context_limit", size):
        return CallDone(tuple(acted), tuple(events), size)
    reads.value("context_limit")  # the summary's reason names it
    before = running.snapshot()
    summary = compact_history(before, summarizer, store, l4_reason(before, reads.settings)[1],
                              settings=reads.settings)
    if summary.history is not before:
        running.reset(summary.history)
    acted.append("L4")
    events.append(summary.events[0])
    return CallDone(tuple(acted), tuple(events), size, True)


class IncrementalPipeline:
    """The pipeline strategy's incremental form at `params` (settings it overrides, as `build` gives them)."""

    def __init__(self, params: dict):
        self.changes = tuple(sorted(params.items()))

    def settings(self, settings: Settings) -> Settings:
        """The settings its layers read when the replay runs at `settings`."""
        return settings.replace(**dict(self.changes)) if self.changes else settings

    def __call__(self, running: RunningHistory, reads: SettingsReads, store: OutputStore,
                 summarizer: Summarizer) -> CallDone:
        return pipeline_call(running, reads, store, summarizer)
