"""Replay: the agent loop over a whole conversation, one record per model call.

Each assistant message of the original is a model call. Before it, the strategy (by default the
four-layer pipeline) runs on the history so far and its output becomes the history, as the loop's
`messages[:] = ...` does: a summary is permanent. A `compact` tool call compacts once all results of
its turn are appended. A context over the model window is compacted reactively before it is sent.

Exact where the log knows: until the strategy first changes the history (and before the log's own first
compaction), what a call sends is exactly what the agent sent, so its tokens are the ones the log
recorded, not an estimate; the estimate starts where the two histories part (`ReplayResult.parting_call`).
Each call is priced as the log says (its response's model, its cache lifetime: measures/billing.py)
unless the person set prices.

Two loops give the same records: a strategy the registry gives an incremental form (the tutorial's
pipeline) runs in the incremental loop (incremental.py: per call, only the work its new messages cause);
the others in the reference loop (reference.py: the strategy's step on the whole history at every call),
which is the reference the incremental one is tested against.
"""

from typing import Any

from compaction.model.settings import DEFAULTS, Settings
from compaction.replay.context import ReplayContext
from compaction.replay.incremental import replay_incremental
from compaction.replay.options import ReplayOptions, options_from
from compaction.replay.records import MODEL_WINDOW_TOKENS, CallRecord, ReplayResult
from compaction.replay.reference import replay_reference
from compaction.strategies import StepFunction, resolve
from compaction.strategies.person import has_person_actions

__all__ = ["MODEL_WINDOW_TOKENS", "CallRecord", "ReplayOptions", "ReplayResult", "incremental_form", "replay"]


def incremental_form(step, prepared=None):
    """The incremental form of a resolved strategy (a registry strategy, built), or None. None too for a log
    that holds the person's own compactions (`prepared`): only the reference loop makes them."""
    if prepared is not None and has_person_actions(prepared):
        return None
    return getattr(step, "incremental", None)


def replay(conversation, settings: Settings | None = None, *, strategy: "str | StepFunction" = "pipeline",
           options: ReplayOptions | None = None, **changes: Any) -> ReplayResult:
    """Replay a conversation (message list, Conversation or prepared History) through the agent loop.

    What rides along is `options` (options.py), or its fields given one by one (`store=`, `summarizer=`,
    `model_window_tokens=`, `prices=`, `keep_histories=`, `plain=`, `from_log=`) over the defaults.
    Nothing passed in is changed. `keep_histories=False` drops the per-call histories (sweeps). Each
    call is measured (measures/meter.py): what the log recorded, cache reads and writes, cost, blind
    references; artifact retention at the end. `prices` None prices each call as the log says (its
    model's row of the price table); given, every call is priced at them. A Conversation brings the usage
    and times the log recorded; a prepared History brings the token model calibrated on them.
    `plain=True` runs the reference loop (reference.py) whatever the strategy (the same records, more slowly).
    `from_log=False` estimates every call's tokens and cache use as if the log had recorded nothing but
    the fit of its token model (how far the models alone come, against the log: benchmarks).
    """
    settings = settings or DEFAULTS
    chosen = options_from(options, changes)
    name, step = resolve(strategy)
    spec = getattr(step, "spec", None)  # a registry strategy, built
    context = ReplayContext.start(conversation, name, chosen, follows_log=getattr(spec, "follows_log", False))
    # what is kept verbatim reshapes L1 and L2 in ways only the plain layers know (model/keep.py)
    form = None if chosen.plain or settings.keeps else incremental_form(step, context.prepared)
    if form is not None:
        return replay_incremental(context, settings, form)
    return replay_reference(context, settings, step)
