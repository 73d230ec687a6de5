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
the others in the plain loop (plain.py: the strategy's step on the whole history at every call), which is
also the reference the incremental one is tested against.
"""

from compaction.measures.cost import Prices
from compaction.model.settings import DEFAULTS, Settings
from compaction.replay.context import ReplayContext
from compaction.replay.incremental import replay_incremental
from compaction.replay.plain import replay_plain
from compaction.replay.records import MODEL_WINDOW_TOKENS, CallRecord, ReplayResult
from compaction.storage.outputs import OutputStore
from compaction.strategies import StepFunction, resolve
from compaction.summarizers import Summarizer

__all__ = ["MODEL_WINDOW_TOKENS", "CallRecord", "ReplayResult", "incremental_form", "replay"]


def incremental_form(step):
    """The incremental form of a resolved strategy (a registry strategy, built), or None."""
    return getattr(step, "incremental", None)


def replay(conversation, settings: Settings | None = None, *, store: OutputStore | None = None,
           summarizer: Summarizer | None = None, model_window_tokens: int | None = None,
           strategy: "str | StepFunction" = "pipeline", keep_histories: bool = True,
           prices: Prices | None = None, plain: bool = False, from_log: bool = True) -> ReplayResult:
    """Replay a conversation (message list, Conversation or prepared History) through the agent loop.

    `model_window_tokens` None is the log's own window (its model's: measures/windows.py); a number overrides
    it. Nothing passed in is changed. `keep_histories=False` drops the per-call histories (sweeps). Each
    call is measured (measures/meter.py): what the log recorded, cache reads and writes, cost, blind
    references; artifact retention at the end. `prices` None prices each call as the log says (its
    model's row of the price table); given, every call is priced at them. A Conversation brings the usage
    and times the log recorded; a prepared History brings the token model calibrated on them.
    `plain=True` runs the plain loop whatever the strategy (the same records, more slowly).
    `from_log=False` estimates every call's tokens and cache use as if the log had recorded nothing but
    the fit of its token model (how far the models alone come, against the log: benchmarks).
    """
    settings = settings or DEFAULTS
    name, step = resolve(strategy)
    context = ReplayContext.start(conversation, name, store, summarizer, model_window_tokens, keep_histories, prices,
                                  from_log)
    form = None if plain else incremental_form(step)
    if form is not None:
        return replay_incremental(context, settings, form)
    return replay_plain(context, settings, step)
