"""L4 compact_history: save the whole history to a transcript, then replace it with one summary
message written by a summariser (an LLM, or the offline one). What the settings keep verbatim
(model/keep.py) is not summarised: it follows the summary, whole."""

from collections.abc import Collection

from compaction.errors import SummarizerError
from compaction.model.events import LayerResult, SummaryEvent
from compaction.model.history import History, prepare
from compaction.model.keep import kept_positions
from compaction.model.markers import COMPACTED_PREFIX
from compaction.model.messages import Message
from compaction.model.settings import Settings
from compaction.model.sizes import message_size
from compaction.storage.outputs import OutputStore
from compaction.summarizers import OfflineSummarizer, Summarizer


def summary_message(prefix: str, summary: str) -> Message:
    return {"role": "user", "content": f"{prefix}\n\n{summary}"}


def summarize_into(history: History, keep_from: int, prefix: str, reason: str, layer: str,
                   summarizer: Summarizer | None, store: OutputStore | None,
                   focus: str | None = None, start: int = 0, summary_input: list | None = None,
                   kept: Collection[int] = ()) -> LayerResult:
    """Replace messages[start:keep_from] with a summary of them, keeping the messages around them.

    The transcript of the whole history is written first, so nothing is lost even when the
    summariser fails; on failure the history is returned unchanged with the error recorded.
    `summary_input` is what the summariser reads when it is not the replaced messages themselves
    (a peer that trims them first). `kept`: positions among them no layer may touch (model/keep.py):
    they are not summarised and follow the summary, whole, in their order.
    """
    summarizer = summarizer or OfflineSummarizer()
    store = store or OutputStore.temporary()
    transcript = store.save_transcript(history.messages)
    carried = sorted(p for p in set(kept) if start <= p < keep_from)
    skipped = set(carried)
    replaced = [p for p in range(start, keep_from) if p not in skipped] if carried else range(start, keep_from)
    if carried and not replaced:
        return LayerResult(history, [SummaryEvent(True, reason, summarizer.name, "", transcript,
                                                  "nothing to summarise: every message is kept verbatim", (), layer)])
    covered = [history.messages[p] for p in replaced] if summary_input is None else summary_input
    summarized = tuple(o for p in replaced if (o := history.origins[p]) is not None)
    try:
        text = summarizer.summarize(covered, focus=focus)
    except SummarizerError as error:
        event = SummaryEvent(True, reason, summarizer.name, "", transcript, str(error), summarized, layer)
        return LayerResult(history, [event])
    text = text.strip() or "(empty summary)"
    message = summary_message(prefix, text)
    messages = history.messages[:start] + [message] + [history.messages[p] for p in carried] + history.messages[keep_from:]
    sizes = history.sizes[:start] + [message_size(message)] + [history.sizes[p] for p in carried] + history.sizes[keep_from:]
    origins = history.origins[:start] + [None] + [history.origins[p] for p in carried] + history.origins[keep_from:]
    event = SummaryEvent(True, reason, summarizer.name, text, transcript, None, summarized, layer)
    return LayerResult(history.derive(messages, sizes, origins), [event])


def compact_history(conversation, summarizer: Summarizer | None = None, store: OutputStore | None = None,
                    reason: str = "compaction requested", focus: str | None = None,
                    settings: Settings | None = None) -> LayerResult:
    """The whole history becomes one `[Compacted]` summary message, followed by what `settings` keep
    verbatim."""
    history = prepare(conversation)
    return summarize_into(history, len(history.messages), COMPACTED_PREFIX, reason, "L4",
                          summarizer, store, focus, kept=kept_positions(history, settings))
