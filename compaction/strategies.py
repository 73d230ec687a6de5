"""Ways to shrink the history before a model call, all of one shape so a replay can run any of them:
`step(history, settings, store, summarizer) -> Step`.

- "pipeline": the tutorial's four layers (L3 -> L1 -> L2 -> L4 over CONTEXT_LIMIT).
- "masking": observation masking as OpenHands and "The Complexity Trap" do it: tool outputs older
  than the newest KEEP_RECENT become a short mask; nothing is ever summarised.
- "summary_keep_last": LangChain's SummarizationMiddleware: over CONTEXT_LIMIT characters, summarise
  everything but the newest REACTIVE_KEEP_LAST messages, the cut moved so no tool pair is split.

Other knobs (e.g. LangChain's default of 20 kept messages) go in with functools.partial on the step
functions, whose extra keyword arguments override the settings they borrow.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from .errors import SettingsError
from .events import SummaryEvent
from .history import History, result_positions
from .layers.micro import micro_compact
from .layers.reactive import nothing_to_summarize, reactive_cut
from .layers.summary import summarize_into
from .markers import KEEP_LAST_SUMMARY_PREFIX, MASK
from .pipeline import run_pipeline
from .settings import Settings
from .store import OutputStore
from .summarizers import Summarizer


@dataclass(frozen=True)
class Step:
    """What a strategy did before one model call."""

    history: History
    acted: tuple[str, ...] = ()  # layer names that changed the history (or tried to summarise)
    events: tuple = ()
    # the size compared with CONTEXT_LIMIT, None if the strategy does not look at it: a replay in
    # which it never went over the limit is the same for every larger limit (the sweep reuses it)
    checked_size: int | None = None


StepFunction = Callable[[History, Settings, OutputStore, Summarizer], Step]


def pipeline_step(history: History, settings: Settings, store: OutputStore, summarizer: Summarizer) -> Step:
    result = run_pipeline(history, settings, store, summarizer, check=False)
    acted = [stage.layer for before, stage in zip(result.stages, result.stages[1:], strict=False)
             if stage.layer != "L4" and stage.history is not before.history]
    events: list = [*result.persisted, *result.snipped, *result.placeholders]
    if result.summary.triggered:
        acted.append("L4")
        events.append(result.summary)
    return Step(result.final.history, tuple(acted), tuple(events), result.stage("L2").history.size)


@lru_cache(maxsize=64)
def _masking_settings(settings: Settings, window: int) -> Settings:
    # mask every output longer than the mask itself, so masking twice changes nothing
    return settings.replace(keep_recent=window, min_placeholder_chars=len(MASK))


def masking_step(history: History, settings: Settings, store: OutputStore | None = None,
                 summarizer: Summarizer | None = None, window: int | None = None) -> Step:
    """Mask tool outputs outside the window of the newest `window` (default KEEP_RECENT)."""
    keep = settings.keep_recent if window is None else window
    start = _masked_frontier(history, keep)
    part = history if start == 0 else history.derive(history.messages[start:], history.sizes[start:],
                                                      history.origins[start:])
    masked = micro_compact(part, _masking_settings(settings, keep), placeholder=MASK)
    if masked.history is part:
        return Step(history)
    done = masked.history
    if start:
        done = history.derive(history.messages[:start] + done.messages, history.sizes[:start] + done.sizes,
                              history.origins[:start] + done.origins)
    return Step(done, ("mask",), tuple(masked.events))


def _masked_frontier(history: History, keep: int) -> int:
    """Where the outputs still to look at begin: the message of the newest output outside the window
    that this strategy masked before. Masking goes oldest first and is permanent, so every longer
    output before it is masked already; a replay then looks only at the window and what is new."""
    seen = 0
    for position in range(len(history.messages) - 1, -1, -1):
        blocks = result_positions(history, position)
        seen += len(blocks)
        if seen <= keep or not blocks or history.is_original(position):
            continue
        content = history.messages[position]["content"]
        if any(content[j].get("content") == MASK for j in blocks):
            return position
    return 0


def summary_keep_last_step(history: History, settings: Settings, store: OutputStore | None = None,
                           summarizer: Summarizer | None = None, trigger: int | None = None,
                           keep_last: int | None = None) -> Step:
    """Over `trigger` characters (default CONTEXT_LIMIT), summarise all but the last `keep_last`
    messages (default REACTIVE_KEEP_LAST)."""
    trigger = settings.context_limit if trigger is None else trigger
    keep_last = settings.reactive_keep_last if keep_last is None else keep_last
    size = history.size
    if size <= trigger:
        return Step(history, checked_size=size)
    cut = reactive_cut(history.messages, keep_last)
    if nothing_to_summarize(history.messages, cut):
        return Step(history, checked_size=size)
    reason = f"{size:,} characters > trigger {trigger:,}; keeping the last {len(history) - cut} messages"
    result = summarize_into(history, cut, KEEP_LAST_SUMMARY_PREFIX, reason, "summary", summarizer, store)
    return Step(result.history, ("summary",), tuple(result.events), size)


STRATEGIES: dict[str, StepFunction] = {
    "pipeline": pipeline_step,
    "masking": masking_step,
    "summary_keep_last": summary_keep_last_step,
}

# The settings a strategy reads besides REACTIVE_KEEP_LAST (which every replay reads): a sweep
# reuses one replay for cells that differ only in the others. None: it may read any.
SETTINGS_READ: dict[str, frozenset[str] | None] = {
    "pipeline": None,
    "masking": frozenset({"keep_recent"}),
    "summary_keep_last": frozenset({"context_limit"}),
}


def resolve(strategy: "str | StepFunction") -> tuple[str, StepFunction]:
    """(name, step function) for a strategy name or a step function."""
    if callable(strategy):
        return getattr(strategy, "__name__", "custom"), strategy
    if strategy not in STRATEGIES:
        raise SettingsError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    return strategy, STRATEGIES[strategy]


def summaries_made(events) -> int:
    return sum(1 for e in events if isinstance(e, SummaryEvent) and e.succeeded)
