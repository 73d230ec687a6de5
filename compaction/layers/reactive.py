"""Reactive compaction: when the API refuses a request as too long, summarise all but the newest
messages (moving the cut so no tool pair is split) and retry once."""

from collections.abc import Callable
from typing import Any

from compaction.layers.summary import summarize_into
from compaction.model.events import LayerResult
from compaction.model.history import History, prepare
from compaction.model.keep import kept_positions
from compaction.model.markers import REACTIVE_PREFIX, is_summary
from compaction.model.messages import has_tool_result, has_tool_use
from compaction.model.settings import DEFAULTS, Settings
from compaction.storage.outputs import OutputStore
from compaction.summarizers import Summarizer


def reactive_cut(messages: list, keep_last: int) -> int:
    """Where the kept tail starts: `keep_last` from the end, moved back over a tool_use whose
    results the tail starts with."""
    cut = max(len(messages) - keep_last, 0)
    if 0 < cut < len(messages) and has_tool_result(messages[cut]) and has_tool_use(messages[cut - 1]):
        cut -= 1
    return cut


def nothing_to_summarize(messages: list, cut: int) -> bool:
    """Whether messages[:cut] hold nothing a new summary could shrink: no message, or only an earlier
    summary (summarising it again would only add a message)."""
    return cut == 0 or (cut == 1 and is_summary(messages[0]))


def reactive_compact(conversation, settings: Settings = DEFAULTS, summarizer: Summarizer | None = None,
                     store: OutputStore | None = None, reason: str = "the API said the prompt is too long"
                     ) -> LayerResult:
    history: History = prepare(conversation)
    cut = reactive_cut(history.messages, settings.reactive_keep_last)
    if nothing_to_summarize(history.messages, cut):
        return LayerResult(history)
    return summarize_into(history, cut, REACTIVE_PREFIX, reason, "reactive", summarizer, store,
                          kept=kept_positions(history, settings, 0, cut))


def send_with_reactive_compact(send: Callable[[list], Any], conversation, settings: Settings = DEFAULTS,
                               summarizer: Summarizer | None = None, store: OutputStore | None = None
                               ) -> tuple[Any, LayerResult | None]:
    """Call `send(messages)`; if the API answers that the prompt is too long, compact reactively and
    retry once. Returns (response, the compaction done or None). Other errors propagate unchanged,
    and so does a second prompt-too-long error."""
    from compaction.llm.api_errors import prompt_too_long

    history = prepare(conversation)
    try:
        return send(history.messages), None
    except Exception as error:
        limits = prompt_too_long(error)
        if limits is None:
            raise
        refused = error
        tokens, maximum = limits
        reason = f"the API refused the prompt: {tokens:,} tokens > {maximum:,} maximum"
    compacted = reactive_compact(history, settings, summarizer, store, reason)
    if compacted.history is history:  # the summariser failed: retrying would fail the same way
        raise refused
    return send(compacted.history.messages), compacted
