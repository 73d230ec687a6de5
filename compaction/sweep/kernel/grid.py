"""A sweep's cells through the kernel, each as soon as it is done; a cell the kernel does not model
exactly comes back without measures and with the reason, for the loop to run it.

What the kernel covers: the tutorial's pipeline (the registry's `pipeline`, at any parameters) with the
offline summariser, on a session without compact-tool calls, in cells whose calls all fit the model
window (no reactive compaction). Everything else is the loop's (sweep/branches.py, replay/loop.py).
"""

from collections.abc import Hashable, Iterator, Sequence
from typing import TypeVar

from compaction.layers.incremental.pipeline import IncrementalPipeline
from compaction.measures.registry import MEASURES
from compaction.model.history import History
from compaction.model.settings import Settings
from compaction.replay import lookups
from compaction.replay.context import ReplayContext
from compaction.strategies.person import PERSON_ACTIONS, has_person_actions
from compaction.summarizers import OfflineSummarizer, Summarizer

Key = TypeVar("Key", bound=Hashable)
NO_COLUMNAR_FORM = "the strategy has no columnar form"


def refusal(prepared: History, form, summarizer: Summarizer | None) -> str | None:
    """Why the kernel cannot run any cell of a sweep of `prepared` (None: it can try each). `form`: the
    strategy's incremental form (None: it has none); `summarizer` None is the offline summariser."""
    if not isinstance(form, IncrementalPipeline):
        return NO_COLUMNAR_FORM
    if summarizer is not None and type(summarizer) is not OfflineSummarizer:
        return "the summaries are not the offline summariser's"
    if lookups.compact_turns(prepared):
        return "the session calls the compact tool"
    if has_person_actions(prepared):
        return PERSON_ACTIONS
    from compaction.sweep.kernel.columns import columns_of  # numpy: loaded once a sweep may use the kernel

    call_indices = [i for i, m in enumerate(prepared.messages) if m.get("role") == "assistant"]
    if columns_of(prepared, call_indices).literal_placeholder:
        return "a tool result holds the placeholder's own text"
    return None


def kernel_cells(context: ReplayContext, form, cells: Sequence[tuple[Key, Settings]]
                 ) -> Iterator[tuple[Key, Settings, dict | None, str | None]]:
    """(key, settings, the cell's measures or None, why the loop must run it or None) of each cell."""
    from compaction.sweep.kernel.cell import Shared, measures, run_cell  # numpy: only when the kernel runs
    from compaction.sweep.kernel.persisted import Outside

    reason = refusal(context.prepared, form, context.summarizer)
    shared = None
    if reason is None:
        try:
            shared = Shared.of(context)
        except Outside as outside:
            reason = str(outside)
    for key, settings in cells:
        if shared is None:
            yield key, settings, None, reason
            continue
        try:
            found = measures(shared, run_cell(shared, form.settings(settings)))
        except Outside as outside:
            yield key, settings, None, str(outside)
            continue
        yield key, settings, {name: found[name] for name in MEASURES}, None  # in the loop's order
