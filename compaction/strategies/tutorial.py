"""The tutorial's pipeline and the two strategies it was first compared with, under their old names.

- "pipeline": the tutorial's four layers (L3 -> L1 -> L2 -> L4 over CONTEXT_LIMIT).
- "masking": observation masking: tool outputs older than the newest KEEP_RECENT become a short
  mask; nothing is ever summarised.
- "summary_keep_last": over CONTEXT_LIMIT characters, summarise everything but the newest
  REACTIVE_KEEP_LAST messages, the cut moved so no tool pair is split.

Their knobs are the Settings (the sidebar's sliders, the CLI's flags); a parameter given to
`build` overrides the setting it names.
"""

from functools import lru_cache, partial

from compaction.layers.incremental.pipeline import IncrementalPipeline
from compaction.layers.micro import micro_compact
from compaction.layers.pipeline import run_layers
from compaction.layers.reactive import nothing_to_summarize, reactive_cut
from compaction.layers.summary import summarize_into
from compaction.model.history import History
from compaction.model.keep import kept_positions
from compaction.model.markers import KEEP_LAST_SUMMARY_PREFIX, MASK
from compaction.model.settings import DEFAULTS, HELP, LIMITS, Settings
from compaction.storage.outputs import OutputStore
from compaction.strategies import actions
from compaction.strategies.base import Step, StepFunction
from compaction.strategies.params import Param
from compaction.strategies.spec import Source, StrategySpec
from compaction.summarizers import Summarizer

TUTORIAL = Source("The s08_context_compact tutorial: its code and explanation (this project's seed documents)", "")


def pipeline_step(history: History, settings: Settings, store: OutputStore | None = None,
                  summarizer: Summarizer | None = None) -> Step:
    run = run_layers(history, settings, store or OutputStore.temporary(), summarizer)
    acted = []
    before = history
    for layer, done in (("L3", run.after_l3), ("L1", run.after_l1), ("L2", run.after_l2)):
        if done.history is not before:
            acted.append(layer)
        before = done.history
    events: list = [*run.after_l3.events, *run.after_l1.events, *run.after_l2.events]
    final = run.after_l2.history
    if run.after_l4 is not None:
        acted.append("L4")
        events.append(run.after_l4.events[0])
        final = run.after_l4.history
    return Step(final, tuple(acted), tuple(events), run.after_l2.history.size)


@lru_cache(maxsize=64)
def _masking_settings(settings: Settings, window: int) -> Settings:
    # mask every output longer than the mask itself, so masking twice changes nothing
    return settings.replace(keep_recent=window, min_placeholder_chars=len(MASK))


def masking_step(history: History, settings: Settings, store: OutputStore | None = None,
                 summarizer: Summarizer | None = None, window: int | None = None) -> Step:
    """Mask tool outputs outside the window of the newest `window` (default KEEP_RECENT)."""
    keep = settings.keep_recent if window is None else window
    # micro_compact stops at the newest output this strategy masked before: masking goes oldest first and
    # is permanent, so a replay looks only at the window and what is new
    masked = micro_compact(history, _masking_settings(settings, keep), placeholder=MASK)
    if masked.history is history:
        return Step(history)
    return Step(masked.history, ("mask",), tuple(masked.events))


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
    result = summarize_into(history, cut, KEEP_LAST_SUMMARY_PREFIX, reason, "summary", summarizer, store,
                            kept=kept_positions(history, settings, 0, cut))
    return Step(result.history, ("summary",), tuple(result.events), size)


def _setting(name: str, unit: str) -> Param:
    low, high = LIMITS[name]
    return Param(name, getattr(DEFAULTS, name), "int", HELP[name], unit, low, high)


@lru_cache(maxsize=256)
def _overridden(settings: Settings, changes: tuple) -> Settings:
    return settings.replace(**dict(changes))


def _make_pipeline(params: dict) -> StepFunction:
    if not params:
        return pipeline_step
    changes = tuple(sorted(params.items()))
    DEFAULTS.replace(**params)  # a bad combination (keep_head >= max_messages) fails now, not mid-replay

    def step(history, settings, store=None, summarizer=None):
        return pipeline_step(history, _overridden(settings, changes), store, summarizer)
    return step


PIPELINE = StrategySpec(
    name="pipeline", label="Tutorial pipeline", title="Four-layer pipeline (the s08 tutorial)", family="Tutorial",
    actions=(actions.L3, actions.L1, actions.L2, actions.L4,),
    description="Saves huge outputs to disk, snips the middle, swaps old tool results for a placeholder, and "
                "asks for a summary only when the history is still over CONTEXT_LIMIT characters.",
    params=(_setting("context_limit", "characters"), _setting("keep_recent", "tool results"),
            _setting("persist_threshold", "characters"), _setting("max_bytes", "characters"),
            _setting("preview_chars", "characters"), _setting("max_messages", "messages"),
            _setting("keep_head", "messages"), _setting("min_placeholder_chars", "characters")),
    make=_make_pipeline, sources=(TUTORIAL,), from_settings=True, settings_read=None, incremental=IncrementalPipeline,
    notes=("The order is L3 -> L1 -> L2 -> L4, cheapest first; every layer's output replaces the history, "
           "as the tutorial's loop does with `messages[:] = ...`.",),
)

MASKING = StrategySpec(
    name="masking", label="Masking only", title="Observation masking (keep the newest tool outputs)",
    actions=(actions.MASK,),
    family="Tutorial",
    description="Replaces every tool output older than the newest few with a short mark and never summarises: "
                "the model still sees every message it wrote.",
    params=(Param("window", DEFAULTS.keep_recent, "int", "Newest tool outputs kept whole (KEEP_RECENT when not "
                  "given).", "tool results", 0, LIMITS["keep_recent"][1]),),
    make=lambda params: partial(masking_step, **params) if params else masking_step,
    sources=(TUTORIAL, Source("Lindenbauer et al., The Complexity Trap (2025)", "https://arxiv.org/abs/2508.21433")),
    from_settings=True, settings_read=frozenset({"keep_recent"}),
    notes=("Only outputs longer than the mask itself are masked, so masking twice changes nothing.",),
)

SUMMARY_KEEP_LAST = StrategySpec(
    name="summary_keep_last", label="Keep last + summary", title="Keep the last messages, summarise the rest",
    actions=(actions.SUMMARY,),
    family="Tutorial",
    description="Does nothing until the history is over CONTEXT_LIMIT characters, then replaces everything but "
                "the newest few messages with one summary.",
    params=(Param("trigger", DEFAULTS.context_limit, "int", "Summarise when the messages pass this size "
                  "(CONTEXT_LIMIT when not given).", "characters", *LIMITS["context_limit"]),
            Param("keep_last", DEFAULTS.reactive_keep_last, "int", "Newest messages kept whole "
                  "(REACTIVE_KEEP_LAST when not given).", "messages", *LIMITS["reactive_keep_last"])),
    make=lambda params: partial(summary_keep_last_step, **params) if params else summary_keep_last_step,
    sources=(TUTORIAL,), from_settings=True, settings_read=frozenset({"context_limit"}),
)

SPECS = (PIPELINE, MASKING, SUMMARY_KEEP_LAST)
