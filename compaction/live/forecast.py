"""How far the next compaction is and what it will cost, for one rule (rules.py) on a followed session.

- Tokens in context now: the newest call's context, plus what was written since (its output, and the
  text since at characters / 4), or what the rule's agent itself counts (rules.counted: one adds its
  earlier reasoning, another compares the last prompt). Right after the agent's own compaction, before
  the next call, it is what the compaction kept (rules.kept), so the forecast starts again from there.
- How far: the threshold minus that, in tokens; in calls at the session's own pace (pace.py: its last 30
  growths, a drop without a compaction counted as no growth, replayed from each of them in turn; the
  middle of the calls they take): the next call carries at least what was written since. "1 call" means
  the agent compacts before its next call.
- The range `calls_left_range` (about 80 %): the 10th and 90th percentiles of those replays, widened by
  pace.DRIFT, the part of a session's future its recent past does not show, fitted and checked on the public
  logs (benchmarks/forecast_calibration.py). A session with fewer than pace.SHORT growths of history gets a
  wider range that does not claim 80 % (`range_label` says how many calls it rests on).
- What it costs (costs.py): the compaction's own call, and the first call after it, which reads the system
  prompt and tools from the cache and writes the rest, against the next call without compacting.
"""

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from compaction.live.costs import Costs, compaction_costs
from compaction.live.formats import live_format
from compaction.live.pace import SHORT, middle, passages, spread
from compaction.live.rules import Rule, agent_rule, counted, kept
from compaction.live.session import LiveSession


@dataclass(frozen=True)
class Forecast:
    strategy: str
    label: str
    threshold: int
    tokens_now: int | None  # None before the first call
    tokens_left: int | None
    growth_per_call: float | None
    calls_left: int | None  # None while the context is not growing (or not yet known)
    calls_left_range: tuple[int, int | None] | None  # about 80 %; a high end of None: no end in sight
    action: str | None  # what the compaction will drop or summarise
    kept_tokens: int | None
    kept_basis: str | None  # where kept_tokens comes from
    summary_basis: str | None
    costs: Costs | None
    history_calls: int = 0  # the growths of its own history the range rests on (pace.SHORT: enough for 80 %)

    def as_dict(self) -> dict:
        found = asdict(self)
        found["growth_per_call"] = None if self.growth_per_call is None else round(self.growth_per_call, 1)
        found["calls_left_range"] = None if self.calls_left_range is None else list(self.calls_left_range)
        found["costs"] = self.costs.as_dict() if self.costs else None
        return found


def context_now(session: LiveSession, rule: Rule) -> int | None:
    """The context the next call starts from: the newest call's, or what the agent's compaction kept."""
    newest = session.newest
    if newest is None:
        return None
    if session.awaiting_first_call:  # what the agent's own rule kept, whichever rule is forecast
        last = session.compactions[-1]
        if last.post_tokens and live_format(session.agent).post_tokens_is_context:
            return last.post_tokens  # the agent's note gives the whole compressed context
        after = kept(agent_rule(session), session, last.context_before or newest.context)
        return after.tokens if after else newest.context
    return newest.context


def forecast(session: LiveSession, rule: Rule) -> Forecast:
    context = context_now(session, rule)
    if context is None:
        return Forecast(rule.strategy, rule.label, rule.threshold, None, None, None, None, None, None, None, None,
                        None, None)
    pending = session.pending_tokens()
    tokens_now = counted(rule, session, context, pending)
    growth = session.growth_per_call()
    # what the agent's own count adds to (or leaves out of) the context and what was written since moves the
    # threshold the calls have to reach
    reach = rule.threshold - (tokens_now - context - pending)
    growths = list(session.growths)
    calls = calls_left(reach, context, pending, growths)
    around = calls_left_range(reach, context, pending, growths)
    after = kept(rule, session, tokens_now)
    costs = compaction_costs(session, context, tokens_now, after, growth) if after else None
    return Forecast(rule.strategy, rule.label, rule.threshold, tokens_now, rule.threshold - tokens_now, growth,
                    calls, around, after.action if after else None, after.tokens if after else None,
                    after.kept_basis if after else None, after.basis if after else None, costs, len(growths))


def range_label(forecast: Forecast) -> str:
    """What the range claims: '80 %', or, with too short a history, that it rests on only so many calls."""
    if forecast.history_calls >= SHORT:
        return "80 %"
    return f"wider, from only {forecast.history_calls} call{'s' if forecast.history_calls != 1 else ''} of history"


def calls_left(threshold: int, context: int, pending: int, growths: Sequence[int]) -> int | None:
    """Before which of the coming calls the compaction happens (1: the next one), or None when the
    context is not growing (or has no growth yet) and is below the threshold."""
    if context + pending >= threshold:
        return 1
    found = passages(threshold - context, pending, growths)
    return None if found is None else middle(found)


def calls_left_range(threshold: int, context: int, pending: int,
                     growths: Sequence[int]) -> tuple[int, int | None] | None:
    """[low, high] around calls_left, about 80 % (pace.py); None before the pace is known. Past the
    threshold it is [1, 1]; a session not growing has no high end (None)."""
    if context + pending >= threshold:
        return (1, 1)
    if not growths:
        return None
    found = passages(threshold - context, pending, growths)
    return (1, None) if found is None else spread(found)
