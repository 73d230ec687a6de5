"""A replay's records: one per model call (what was sent, what acted, what it cost and lost), and
the totals over the session. Plain data, so the CLI, the pages, sweeps and corpora read the same."""

from dataclasses import asdict, dataclass, field
from typing import Any

from compaction.importers.totals import has_tokens, input_of
from compaction.measures.cost import DEFAULT_PRICES, Prices
from compaction.measures.meter import CallMeasures
from compaction.measures.run_totals import totals_cost
from compaction.model.calibration import Calibration
from compaction.model.events import AppliedEdit, SummaryEvent
from compaction.model.history import History
from compaction.model.settings import Settings
from compaction.model.tokens import DEFAULT_TOKEN_MODEL, TokenModel
from compaction.replay.lookups import call_number
from compaction.strategies import all_actions

MODEL_WINDOW_TOKENS = 200_000


@dataclass(slots=True)
class CallRecord:
    """One model call of a replay; built once, by keyword (protocol.py), and read as plain data after."""

    call: int  # 0-based number of the model call
    index: int  # index in the original conversation of the assistant message this call produced
    messages: int  # messages sent
    chars: int  # characters sent: messages plus system prompt and tools
    tokens: int  # estimated from chars
    raw_chars: int  # what the same call would send without any compaction
    raw_tokens: int
    acted: tuple[str, ...]  # what changed the history before this call, in order (see strategies.actions)
    summaries: int  # successful summaries so far, this call's included
    tokens_total: int  # tokens sent by all calls so far, this one included
    raw_tokens_total: int
    over_window: bool  # still over the model window after reactive compaction
    events: tuple = field(default=(), repr=False, compare=False)  # the layers' records
    measures: CallMeasures | None = field(default=None, compare=False)  # cost and loss (measures/meter.py)
    raw_cost_usd: float = 0.0  # what this call would cost without compaction, caching included
    raw_runs: bool = True  # without compaction this call would still fit the model window
    exact: bool = False  # `tokens` are what the log recorded (the history is still what the agent sent)

    @property
    def applied_edits(self) -> list[AppliedEdit]:
        """Edits made to this request only (the API's context editing), as `applied_edits` reports them."""
        return [e for e in self.events if isinstance(e, AppliedEdit)]

    @property
    def blind_references(self) -> tuple[str, ...]:
        return self.measures.blind if self.measures else ()

    def as_dict(self) -> dict[str, Any]:
        data = {"call": call_number(self.call), "index": self.index, "messages": self.messages, "chars": self.chars,
                "tokens": self.tokens, "estimated_tokens": self.tokens, "raw_chars": self.raw_chars,
                "raw_tokens": self.raw_tokens, "raw_runs": self.raw_runs, "acted": list(self.acted),
                "summaries": self.summaries, "tokens_total": self.tokens_total,
                "raw_tokens_total": self.raw_tokens_total, "over_window": self.over_window,
                "exact_tokens": self.exact, "applied_edits": [e.as_dict() for e in self.applied_edits]}
        measures = self.measures
        if measures is not None:
            data |= {"recorded": measures.recorded, "cache_read_tokens": measures.cache_read,
                     "cache_write_tokens": measures.cache_write, "cache_broken": measures.cache_broken,
                     "output_tokens": measures.output_tokens, "cost_usd": round(measures.cost_usd, 6),
                     "cost_usd_no_cache": round(measures.cost_usd_no_cache, 6),
                     "compaction_cost_usd": round(measures.compaction_cost_usd, 6),
                     "blind_references": len(measures.blind), "blind_terms": list(measures.blind)}
        return data


@dataclass
class ReplayResult:
    strategy: str
    settings: Settings
    model_window_tokens: int
    calls: list[CallRecord] = field(default_factory=list)
    histories: list[History] | None = None  # the history sent at each call, if kept
    # the log's own compactions: {"index", "trigger", "pre_tokens", "call"}; "call" is the first
    # call sent after the boundary, None when no call follows it
    boundaries: list[dict] = field(default_factory=list)
    tool_output_chars: int = 0  # characters of tool output produced before some call
    tool_output_whole_chars: int = 0  # of those, reached the model whole at least once
    max_checked_size: int | None = None  # largest size compared with CONTEXT_LIMIT (see Step)
    calibration: Calibration | None = None  # the token model's fit on the log's recorded usage
    prices: Prices | None = None  # the person's prices; None: each call priced as the log says
    price_notes: tuple[str, ...] = ()  # each model the price table lacks, or no model at all, said once
    cache_lifetimes: tuple[str, ...] = ()  # the lifetimes of the log's cache writes ("5m", "1h")
    artifact_retention: float | None = None  # at the last call (measures/loss.py)
    cache_check: tuple[int, int] | None = None  # (modelled, recorded) cache reads of what the agent sent
    token_model: TokenModel = DEFAULT_TOKEN_MODEL  # characters -> tokens for every figure of this replay
    overhead_chars: int = 0  # characters of system prompt and tools sent with every call
    recorded_totals: dict | None = None  # what the log says of the whole run (importers/totals.py)
    run_model: str | None = None  # the model the log names for the whole run, not per call
    # the calls on another model than the main one, each replayed against its own model's window
    call_windows: tuple = ()  # measures/windows.py CallWindow(index, model, tokens)

    def history(self, call: int) -> History:
        """The history sent at `call` (its `.messages`, `.sizes`, `.origins`)."""
        if self.histories is None:
            raise ValueError("this replay did not keep its histories (keep_histories=False)")
        return self.histories[call]

    @property
    def priced_as(self) -> str:
        """What the costs are priced at, in words."""
        if self.prices is not None:
            return "the prices set"
        if any(note.startswith("the conversation names no model") for note in self.price_notes):
            return "the default prices"
        return "the log's models"

    @property
    def parting_call(self) -> int | None:
        """The first call whose tokens are estimated: where the strategy's history parted from what the
        agent sent (or where the log stops saying). None when every call's tokens are recorded."""
        return next((c.call for c in self.calls if not c.exact), None)

    @property
    def raw_stop_call(self) -> int | None:
        """The first call the model window would refuse without compaction: the agent stops there."""
        return next((c.call for c in self.calls if not c.raw_runs), None)

    @property
    def totals(self) -> dict[str, Any]:
        calls = self.calls
        last = calls[-1] if calls else None
        summaries = [e for c in calls for e in c.events if isinstance(e, SummaryEvent) and e.triggered]
        measured = [c.measures for c in calls if c.measures is not None]
        # like for like: the calls both the strategy and no compaction could make, the calls before the
        # one where the uncompacted agent stops (its prompt too long); every comparison with no compaction
        # (tokens, the share saved, the cost) is over these calls only
        stop = self.raw_stop_call
        runs = calls if stop is None else calls[:stop]
        recorded_costs = [m.recorded["cost_usd"] for m in measured if m.recorded and _priced_by_log(m)]
        compared = [c.measures.cost_usd for c in runs if c.measures is not None]
        read = sum(m.cache_read for m in measured[1:])
        written = sum(m.cache_write for m in measured[1:])
        recorded = [m.recorded["context_tokens"] for m in measured if m.recorded]
        # a log that gives only the run's totals: they are the recorded side, every per-call figure estimated
        from_totals = None if recorded_costs else totals_cost(self.recorded_totals, self.prices or DEFAULT_PRICES)
        if from_totals is not None and has_tokens(self.recorded_totals):
            recorded = [input_of(self.recorded_totals)]
        raw_sent = sum(c.raw_tokens for c in runs)
        sent_compared = sum(c.tokens for c in runs)
        return {
            "strategy": self.strategy,
            "calls": len(calls),
            "summaries": last.summaries if last else 0,
            "failed_summaries": sum(1 for e in summaries if not e.succeeded),
            "acted": {action: sum(1 for c in calls if action in c.acted) for action in all_actions()},
            "reactive": sum(1 for c in calls if "reactive" in c.acted),
            "compact_tool": sum(1 for c in calls if "compact_tool" in c.acted),
            "tokens_sent": last.tokens_total if last else 0,
            # without compaction, only the calls before the model window refuses one could be made
            "raw_tokens_sent": raw_sent,
            "tokens_sent_compared": sent_compared,
            "saved_share": 1 - sent_compared / raw_sent if raw_sent else None,
            "raw_stop_call": stop,
            "peak_chars": max((c.chars for c in calls), default=0),
            "peak_tokens": max((c.tokens for c in calls), default=0),
            "raw_peak_tokens": max((c.raw_tokens for c in calls), default=0),
            "over_window_calls": sum(1 for c in calls if c.over_window),
            "tool_output_kept": (self.tool_output_whole_chars / self.tool_output_chars
                                 if self.tool_output_chars else None),
            "model_window_tokens": self.model_window_tokens,
            "calibration": self.calibration.as_dict() if self.calibration else None,
            "recorded_context_tokens": sum(recorded) if recorded else None,
            "cache_read_tokens": sum(m.cache_read for m in measured),
            "cache_write_tokens": sum(m.cache_write for m in measured),
            "cache_hit_rate": read / (read + written) if read + written else None,
            "cache_breaks": sum(1 for m in measured if m.cache_broken),
            "cost_usd": sum(m.cost_usd for m in measured),
            "cost_usd_no_cache": sum(m.cost_usd_no_cache for m in measured),
            # `cost_usd` in its three parts: the calls whose cost the log records, the calls it records none
            # for (estimated), and the compaction calls themselves (the summaries written: no log records
            # them as calls of their own). As recorded, the first part is the log's cost, call for call.
            "compaction_calls_cost_usd": sum(m.compaction_cost_usd for m in measured),
            "compaction_calls_input_tokens": sum(m.compaction_input_tokens for m in measured),
            "compaction_calls_output_tokens": sum(m.compaction_output_tokens for m in measured),
            "unrecorded_calls_cost_usd": sum(m.cost_usd - m.compaction_cost_usd for m in measured
                                             if not _priced_by_log(m)),
            "compared_calls": len(runs),
            "cost_usd_compared": sum(compared),
            "raw_cost_usd": sum(c.raw_cost_usd for c in runs),
            "recorded_cost_usd": sum(recorded_costs) if recorded_costs else from_totals.usd if from_totals else None,
            "recorded_calls": len(recorded_costs),  # the calls whose usage the log recorded (and priced)
            # the recorded cost and tokens are the run's totals: the log gives no call's own usage
            "recorded_from_totals": from_totals is not None,
            "recorded_cost_basis": from_totals.basis if from_totals else None,
            "recorded_totals": self.recorded_totals,  # the log's run totals as it gives them, or None
            "exact_calls": sum(1 for c in calls if c.exact),
            "parting_call": self.parting_call,
            "priced_as": self.priced_as,
            "price_notes": list(dict.fromkeys([*self.price_notes, *(from_totals.notes if from_totals else ())])),
            "cache_lifetimes": list(self.cache_lifetimes),
            "blind_references": sum(len(m.blind) for m in measured),
            "artifact_retention": self.artifact_retention,
            "cache_model_check": _cache_check(self.cache_check),
        }

    def as_dict(self) -> dict[str, Any]:
        """For JSON: every call numbered from 1, as the pages show it (here `call` is a position from 0)."""
        totals = self.totals
        totals.update({key: _number(totals[key]) for key in ("raw_stop_call", "parting_call")})
        numbers = {c.index: call_number(c.call) for c in self.calls}
        return {"calls": [c.as_dict() for c in self.calls], "totals": totals,
                # the calls on another model than the session's, each replayed against its own model's window
                "calls_on_other_models": [{"call": numbers.get(w.index), "model": w.model, "window_tokens": w.tokens}
                                          for w in self.call_windows],
                "settings": self.settings.as_dict(),
                "boundaries": [{**b, "call": _number(b.get("call"))} for b in self.boundaries],
                "prices": asdict(self.prices) if self.prices is not None else None}


def _number(call: int | None) -> int | None:
    return None if call is None else call_number(call)


def _priced_by_log(measures: CallMeasures) -> bool:
    """Whether the log records what this call cost (its usage)."""
    return measures.recorded is not None and measures.recorded.get("cost_usd") is not None


def _cache_check(check: tuple[int, int] | None) -> dict | None:
    if check is None:
        return None
    modelled, recorded = check
    return {"modelled_cache_read_tokens": modelled, "recorded_cache_read_tokens": recorded,
            "ratio": modelled / recorded if recorded else None}
