"""How far the next compaction is and what it will cost, for one rule (rules.py) on a followed session.

- Tokens in context now: the newest call's context, plus what was written since (its output, and the
  text since at characters / 4). Right after the agent's own compaction, before the next call, it is
  what the compaction kept (rules.kept), so the forecast starts again from there.
- How far: the threshold minus that, in tokens; in calls at the session's recent growth per call (the
  mean of the last calls' growths, the drops at compactions left out): the next call carries at least
  what was written since, and each later one grows by the mean. "1 call" means the agent compacts
  before its next call.
- What it costs (costs.py): the compaction's own call, and the first call after it, which writes the
  kept context to the cache, against the next call without compacting, which reads the context from it.
"""

import math
from dataclasses import asdict, dataclass

from compaction.live.costs import Costs, compaction_costs
from compaction.live.formats import live_format
from compaction.live.rules import Rule, agent_rule, kept
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
    action: str | None  # what the compaction will drop or summarise
    kept_tokens: int | None
    summary_basis: str | None
    costs: Costs | None

    def as_dict(self) -> dict:
        found = asdict(self)
        found["growth_per_call"] = None if self.growth_per_call is None else round(self.growth_per_call, 1)
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
        return Forecast(rule.strategy, rule.label, rule.threshold, None, None, None, None, None, None, None, None)
    pending = session.pending_tokens()
    tokens_now = context + pending
    growth = session.growth_per_call()
    calls = calls_left(rule.threshold, context, pending, growth)
    after = kept(rule, session, tokens_now)
    costs = compaction_costs(session, context, tokens_now, after, growth) if after else None
    return Forecast(rule.strategy, rule.label, rule.threshold, tokens_now, rule.threshold - tokens_now, growth,
                    calls, after.action if after else None, after.tokens if after else None,
                    after.basis if after else None, costs)


def calls_left(threshold: int, context: int, pending: int, growth: float | None) -> int | None:
    """Before which of the coming calls the compaction happens (1: the next one), or None when the
    context is not growing and is below the threshold."""
    if context + pending >= threshold:
        return 1
    if growth is None or growth <= 0:
        return None
    step = max(growth, pending)
    if context + step >= threshold:
        return 1
    return 1 + math.ceil((threshold - context - step) / growth)
