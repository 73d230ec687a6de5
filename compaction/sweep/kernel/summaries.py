"""L4 in a cell: the history a call would summarise, built from its layout, summarised as the loop does
(compact_history: the offline summariser, the `[Compacted]` message), and kept by layout: every cell of
the grid whose history at an L4 is the same (the same summary before it, the same messages in the same
versions) shares one summary, which is most of a sweep's summaries."""

from dataclasses import dataclass

from compaction.layers.summary import summary_message
from compaction.model.markers import COMPACTED_PREFIX
from compaction.model.sizes import message_size
from compaction.storage.outputs import OutputStore
from compaction.summarizers import Summarizer
from compaction.sweep.kernel.layout import PRE, Arithmetic, Layout


@dataclass(frozen=True, eq=False)
class Summary:
    message: dict  # the `[Compacted]` message that starts the next epoch
    text: str  # what the summariser wrote (its length prices the summary's output)
    size: int  # message_size(message)
    chars_in: int  # characters of the original messages it replaced (its input, before the cap)
    origins: tuple[int, ...]  # those messages' original indices

    @property
    def content(self) -> str:
        return self.message["content"]


class Summaries:
    def __init__(self, arithmetic: Arithmetic, summarizer: Summarizer, store: OutputStore, originals: list,
                 joined: list[int], original_sizes: list[int]):
        self.arithmetic, self.summarizer, self.store = arithmetic, summarizer, store
        self.originals, self.joined, self.original_sizes = originals, joined, original_sizes
        self.writes = getattr(store, "writes_transcripts", True)  # a sweep's store keeps no transcripts
        self._known: dict[tuple, Summary] = {}

    def of(self, layout: Layout) -> Summary:
        """The summary L4 writes of the history `layout` sends (its count set)."""
        previous = layout.summary.content if layout.summary is not None else None
        key = (previous, layout.kind, layout.start, layout.end, layout.frontier) if layout.kind == PRE else \
            (previous, layout.kind, layout.start, layout.end, layout.frontier, layout.head, layout.marker,
             layout.tail, layout.head_frontier)
        found = self._known.get(key)
        if found is not None and not self.writes:
            return found
        messages = self.arithmetic.items(layout)
        if self.writes:
            self.store.save_transcript(messages)
        if found is None:
            text = self.summarizer.summarize(messages, focus=None).strip() or "(empty summary)"
            message = summary_message(COMPACTED_PREFIX, text)
            origins = self._origins(layout)
            found = self._known[key] = Summary(message, text, message_size(message),
                                               sum(self.original_sizes[o] for o in origins), origins)
        return found

    def _origins(self, layout: Layout) -> tuple[int, ...]:
        joined = self.joined
        if layout.kind == PRE:
            return tuple(joined[layout.start:layout.end])
        return (*joined[layout.start:layout.start + layout.head], *joined[layout.tail:layout.end])
