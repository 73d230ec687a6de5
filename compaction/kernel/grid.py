"""A sweep's cells through the kernel, each as soon as it is done; a cell the kernel does not model
exactly comes back without measures and with the reason, for the loop to run it.

What the kernel covers: the tutorial's pipeline (the registry's `pipeline`, at any parameters) with the
offline summariser, on a session without compact-tool calls, in cells whose calls all fit the model
window (no reactive compaction). Everything else is the loop's (replay/branches.py, replay/loop.py).
"""

from collections.abc import Hashable, Iterator, Sequence
from typing import TypeVar

from compaction.kernel.cell import Shared, measures, run_cell
from compaction.kernel.persisted import Outside
from compaction.layers.incremental.pipeline import IncrementalPipeline
from compaction.model.settings import Settings
from compaction.replay.context import ReplayContext
from compaction.summarizers import OfflineSummarizer

Key = TypeVar("Key", bound=Hashable)


def refusal(context: ReplayContext, form) -> str | None:
    """Why the kernel cannot run this sweep's cells at all (None: it can try each)."""
    if not isinstance(form, IncrementalPipeline):
        return "the strategy has no columnar form"
    if type(context.summarizer) is not OfflineSummarizer:
        return "the summaries are not the offline summariser's"
    return None


def kernel_cells(context: ReplayContext, form, cells: Sequence[tuple[Key, Settings]]
                 ) -> Iterator[tuple[Key, Settings, dict | None, str | None]]:
    """(key, settings, the cell's measures or None, why the loop must run it or None) of each cell."""
    reason = refusal(context, form)
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
            yield key, settings, measures(shared, run_cell(shared, form.settings(settings))), None
        except Outside as outside:
            yield key, settings, None, str(outside)
