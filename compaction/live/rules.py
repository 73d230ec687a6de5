"""Each strategy's compaction rule in the terms a live forecast needs: the threshold in tokens, and what the
history becomes when it is reached. The thresholds are the checked presets' own: each agent registers its
preset's rule (compaction/agents/), the API's server compaction is entered here; their parameters are
checked by the strategy registry, so a what-if is any strategy with a rule, at any parameters.

What is kept, in three shapes:
- summarise everything: the system prompt and tools, and a summary;
- keep the person: the person's newest messages within a budget, and a summary;
- keep the newest share: the newest `preserve_fraction` of the history, and a summary.
The system prompt and tools are the first call's context (it also holds the first prompt: a little more).
"""

from collections.abc import Callable
from dataclasses import dataclass, replace

from compaction.errors import SettingsError
from compaction.live.formats import live_format
from compaction.live.session import Compaction, LiveSession
from compaction.strategies import lookup
from compaction.words import plural

SUMMARISE_ALL, KEEP_PERSON, KEEP_NEWEST = "summarise_all", "keep_person", "keep_newest"


@dataclass(frozen=True)
class RuleForm:
    """One strategy's rule as the forecast needs it."""

    strategy: str  # the registry's name
    shape: str  # SUMMARISE_ALL, KEEP_PERSON or KEEP_NEWEST
    threshold: Callable[[dict, LiveSession], tuple[int, str]]  # (tokens, label) at checked parameters
    default_summary: int  # the summary's size when the log has not shown one
    default_basis: str  # where that size comes from, in words
    knob: str  # the parameter a what-if changes first (the Live page's one control)
    own_params: Callable[[LiveSession], dict] | None = None  # what the agent's own log says of its parameters
    # the size of the summary its last compaction in this log wrote, with its basis; None: not known
    summary_from_log: Callable[[Compaction, LiveSession], tuple[int, str] | None] | None = None
    # the agent's after-compaction model: the tokens its first call after a compaction carries, from what the
    # session shows so far, (rule, session, tokens now) -> (tokens, basis); None: the shape's estimate below
    first_call_after: Callable[["Rule", LiveSession, int], tuple[int, str]] | None = None
    # what the agent itself compares with its threshold, from the newest call's context and what was written
    # since: (session, context, pending) -> tokens; None: the two added
    counted: Callable[[LiveSession, int, int], int] | None = None


_FORMS: dict[str, RuleForm] = {}  # the agents' rules, then the generic ones (listed in that order)
_GENERIC: dict[str, RuleForm] = {}


def register(form: RuleForm, generic: bool = False) -> RuleForm:
    if form.strategy in _FORMS or form.strategy in _GENERIC:
        raise ValueError(f"the forecast rule of {form.strategy!r} is registered already")
    (_GENERIC if generic else _FORMS)[form.strategy] = form
    return form


def what_if() -> tuple[str, ...]:
    """The strategies the forecast has a rule for: the agents' own, then the generic ones."""
    return (*_FORMS, *_GENERIC)


def rule_form(strategy: str) -> RuleForm:
    return _FORMS.get(strategy) or _GENERIC[strategy]


@dataclass(frozen=True)
class Rule:
    strategy: str  # the registry's name
    label: str
    threshold: int
    params: dict
    own: bool  # the agent's own preset: what this log showed of its compactions applies

    @property
    def form(self) -> RuleForm:
        return rule_form(self.strategy)

    @property
    def shape(self) -> str:
        return self.form.shape


@dataclass(frozen=True)
class Kept:
    tokens: int
    summary_tokens: int
    action: str  # what the compaction will drop or summarise, in words
    basis: str  # where the summary's size comes from
    kept_basis: str = "the system prompt and tools, what the rule keeps and its summary"  # where `tokens` comes from


def agent_rule(session: LiveSession) -> Rule:
    """The preset of the agent whose log it is."""
    return rule_for(live_format(session.agent).own_strategy, {}, session, own=True)


def rule_for(strategy: str, params: dict | None, session: LiveSession, own: bool = False) -> Rule:
    """A what-if (or the agent's own) rule; SettingsError for a strategy the forecast has no rule for or
    parameters the registry refuses."""
    if strategy not in what_if():
        raise SettingsError(f"the live forecast knows the rules of {', '.join(what_if())}; got {strategy!r}")
    form = rule_form(strategy)
    given = dict(params or {})
    if own and form.own_params is not None:
        given = {**form.own_params(session), **given}
    values = lookup(strategy).resolve(given)
    threshold, label = form.threshold(values, session)
    return Rule(strategy, label, threshold, values, own)


def summary_tokens(rule: Rule, session: LiveSession) -> tuple[int, str]:
    """(tokens, where the figure comes from) of the summary the compaction will write."""
    last = session.compactions[-1] if session.compactions and rule.own else None
    if last is not None and rule.form.summary_from_log is not None:
        found = rule.form.summary_from_log(last, session)
        if found is not None:
            return found
    default = rule.form.default_summary
    return default, f"{default:,} tokens, {rule.form.default_basis}"


def counted(rule: Rule, session: LiveSession, context: int, pending: int) -> int:
    """The tokens the rule's agent compares with its threshold (its own count where it registers one)."""
    count = rule.form.counted
    return count(session, context, pending) if count is not None else context + pending


def carried_on(session: LiveSession) -> Compaction | None:
    """The agent's latest compaction in this session whose first call after is known."""
    return next((c for c in reversed(session.compactions) if c.first_call_after), None)


def kept(rule: Rule, session: LiveSession, tokens_now: int) -> Kept | None:
    """What the history would hold right after the compaction, from a context of `tokens_now`; None
    before the first call (the system prompt and tools are not known yet). Its tokens: for the agent's own
    rule, what this session's previous compaction really carried on with (its first call after); else the
    agent's after-compaction model (RuleForm.first_call_after); else the shape's estimate."""
    found = shape_kept(rule, session, tokens_now)
    if found is None:
        return None
    previous = carried_on(session) if rule.own else None
    if previous is not None and previous.first_call_after is not None:
        return replace(found, tokens=previous.first_call_after,
                       kept_basis="what this session's last compaction carried on with (its first call after)")
    if rule.form.first_call_after is not None:
        tokens, basis = rule.form.first_call_after(rule, session, tokens_now)
        return replace(found, tokens=tokens, kept_basis=basis)
    return found


def shape_kept(rule: Rule, session: LiveSession, tokens_now: int) -> Kept | None:
    """The shape's estimate: the system prompt and tools, what the shape keeps, and the summary."""
    base = session.base_tokens
    if base is None:
        return None
    summary, basis = summary_tokens(rule, session)
    conversation = max(tokens_now - base, 0)
    part = session.segment
    since = "since the last compaction" if session.compactions else "so far"
    what = f"{plural(part.person_turns, 'turn')} of the person and {plural(part.tool_results, 'tool result')} {since}"
    if rule.shape == SUMMARISE_ALL:
        return Kept(base + summary, summary, f"summarises the whole conversation ({what}: about {conversation:,} "
                    f"tokens beyond the system prompt and tools) into a summary of about {summary:,} tokens; keeps "
                    f"the system prompt and tools (about {base:,} tokens)", basis)
    if rule.shape == KEEP_PERSON:
        budget = rule.params["user_message_budget_tokens"]
        person = min(sum(session.person_tokens), budget)
        return Kept(base + person + summary, summary, f"drops the tool calls, their results and the answers ({what}); "
                    f"keeps the person's newest messages (about {person:,} tokens, at most {budget:,}) and a summary "
                    f"of about {summary:,} tokens", basis)
    share = rule.params["preserve_fraction"]
    newest = int(conversation * share)
    return Kept(base + newest + summary, summary, f"summarises the oldest {1 - share:.0%} of the history (about "
                f"{conversation - newest:,} tokens) into a state snapshot of about {summary:,} tokens; keeps the "
                f"newest {share:.0%} (about {newest:,} tokens)", basis)


# The API's server compaction (compact_20260112): a trigger in input tokens, everything summarised. Its
# summary's size: the median postTokens of the public logs' main-session compactions (2.1.111-2.1.146).
register(RuleForm("anthropic-compact", SUMMARISE_ALL, lambda values, _session: (values["trigger"], "API compaction"),
                  9_650, "typical of real logs", "trigger"), generic=True)
