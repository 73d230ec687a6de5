"""What a replay of one conversation starts from, whichever loop runs it (reference.py, incremental.py), and
how its result is finished: the prepared conversation, the store and summariser, the model window, the
billing of every call, and the indexes the loops look up. The model window is the caller's, or the log's
own (its main model's, measures/windows.py). A sweep's cells share one. A call on another model than the
main one (a one-off turn on a small model) is held to its own model's window (window_at)."""

from dataclasses import dataclass, field

from compaction.errors import SettingsError
from compaction.measures.billing import Billing
from compaction.measures.cache import modelled_cache_reads
from compaction.measures.cost import Prices
from compaction.measures.meter import Meter
from compaction.measures.windows import CallWindow, call_windows, log_window
from compaction.model.history import History, prepare, remeasured
from compaction.model.settings import Settings
from compaction.replay import lookups
from compaction.replay.options import ReplayOptions
from compaction.replay.records import ReplayResult
from compaction.storage.outputs import OutputStore
from compaction.summarizers import OfflineSummarizer, Summarizer


def check_window(model_window_tokens) -> int:
    """A window the caller gave, checked (None, the log's own window, is resolved once the log is prepared)."""
    if isinstance(model_window_tokens, bool) or not isinstance(model_window_tokens, int) \
            or model_window_tokens < 1:
        raise SettingsError(f"the model window must be a positive number of tokens, got {model_window_tokens!r}")
    return model_window_tokens


@dataclass
class ReplayContext:
    name: str  # the strategy's, for the result
    prepared: History  # origins 0..n-1
    store: OutputStore
    summarizer: Summarizer
    window: int
    keep_histories: bool
    prices: Prices | None
    billing: Billing
    call_indices: list[int]  # the assistant messages: one model call each
    from_log: bool = True  # the tokens the log recorded are used where they are known (replay's from_log)
    follows_log: bool = False  # the strategy's calls are the log's own: never compacted reactively (StrategySpec)
    _cache_check: tuple | None = None  # (the check,) once worked out: it does not depend on the settings
    # the calls on another model than the main one, by message index, each at its own model's window
    call_windows: dict[int, CallWindow] = field(default_factory=dict)

    def window_at(self, index: int) -> int:
        """The window the call at message `index` is held to: its own model's, else the session's."""
        found = self.call_windows.get(index)
        return found.tokens if found is not None else self.window

    def over_own_window(self, tokens) -> bool:
        """Whether a call on another model than the main one sends more than its own window (`tokens`: what
        each call sends, in call order)."""
        return any(int(tokens[call]) > self.call_windows[index].tokens
                   for call, index in enumerate(self.call_indices) if index in self.call_windows)

    @classmethod
    def start(cls, conversation, name: str, options: ReplayOptions, follows_log: bool = False) -> "ReplayContext":
        given = options.model_window_tokens
        window = None if given is None else check_window(given)
        prepared = prepare(conversation)
        if prepared.messages is not prepared.originals:  # a layer's output: its origins are not 0..n-1
            prepared = remeasured(prepared.messages, prepared.prepared)
        if window is None:  # the log's model's window (measures/windows.py)
            window = log_window(prepared.recorded.usage, prepared.recorded.metadata).tokens
        calls = [i for i, m in enumerate(prepared.messages) if m.get("role") == "assistant"]
        prices = options.prices
        recorded = prepared.recorded
        return cls(name, prepared, options.store or OutputStore.temporary(), options.summarizer or OfflineSummarizer(),
                   window, options.keep_histories, prices,
                   Billing(recorded.usage, prices, recorded.run_model), calls,
                   from_log=options.from_log, follows_log=follows_log,
                   call_windows=call_windows(recorded.usage, recorded.metadata, window))

    def new_result(self, settings: Settings) -> ReplayResult:
        prepared = self.prepared
        return ReplayResult(self.name, settings, self.window, histories=[] if self.keep_histories else None,
                            boundaries=lookups.boundaries_by_call(prepared.recorded.boundaries, self.call_indices),
                            calibration=prepared.calibration, prices=self.prices, token_model=prepared.token_model,
                            overhead_chars=prepared.overhead, recorded_totals=prepared.recorded.totals,
                            run_model=prepared.recorded.run_model,
                            call_windows=tuple(self.call_windows.values()))

    def new_meter(self) -> Meter:
        recorded = self.prepared.recorded
        return Meter(self.prepared, recorded.usage, recorded.timestamps, self.billing)

    def finish(self, result: ReplayResult, meter: Meter, retention: float | None) -> ReplayResult:
        """What is worked out once the last call is measured."""
        prepared, billing = self.prepared, self.billing
        recorded = prepared.recorded
        result.artifact_retention = retention
        result.price_notes = tuple(billing.notes)
        result.cache_lifetimes = billing.log_lifetimes
        if recorded.usage:
            if self._cache_check is None:
                first = billing.at(self.call_indices[0]).ttl_s if self.call_indices else 300
                self._cache_check = (modelled_cache_reads(prepared.token_model, prepared.sizes, prepared.overhead,
                                                          recorded.usage, recorded.boundaries, recorded.timestamps,
                                                          first),)
            result.cache_check = self._cache_check[0]
        return result
