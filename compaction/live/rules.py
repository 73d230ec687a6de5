"""Each agent's compaction rule in the terms a live forecast needs: the threshold in tokens, and what the
history becomes when it is reached. The thresholds are the checked presets' own (strategies/): Claude
Code's `window - output reserve - buffer` for the log's version, Codex's `auto_compact_limit`, Gemini
CLI's share of the window; their parameters are checked by the registry, so a what-if strategy is any of
WHAT_IF at any parameters.

What is kept, in three shapes:
- summarise everything (Claude Code, the API's compaction): the system prompt and tools, and a summary;
- keep the person (Codex): the person's newest messages within a budget, and a summary;
- keep the newest share (Gemini CLI): the newest `preserve_fraction` of the history, and a summary.
The system prompt and tools are the first call's context (it also holds the first prompt: a little more).
"""

from dataclasses import dataclass

from compaction.errors import SettingsError
from compaction.importers.gemini import GEMMA_TOKEN_LIMIT
from compaction.live.session import CHARS_PER_TOKEN, LiveSession
from compaction.strategies import lookup
from compaction.strategies.claude_code import AUTO, output_reserve_for
from compaction.strategies.codex import auto_compact_limit

AGENT_PRESETS = {"claude-code": "claude-code", "codex": "codex", "gemini": "gemini-cli"}
WHAT_IF = ("claude-code", "codex", "gemini-cli", "anthropic-compact")
SHAPES = {"claude-code": "summarise_all", "anthropic-compact": "summarise_all", "codex": "keep_person",
          "gemini-cli": "keep_newest"}
# The summary's size when the log has not shown one yet. Claude Code: the median postTokens of the six
# main-session compactions of public logs that record it (2.1.111-2.1.146: 5,358 to 21,532). Codex: the
# median encrypted summary of five real compactions (7,012 characters of base64: about 1,300 tokens).
# Gemini CLI: no recording gives its snapshot's size; 2,000 is a guess, and said.
DEFAULT_SUMMARY = {"claude-code": 9_650, "anthropic-compact": 9_650, "codex": 1_300, "gemini-cli": 2_000}


@dataclass(frozen=True)
class Rule:
    strategy: str  # the registry's name
    label: str
    threshold: int
    params: dict
    own: bool  # the agent's own preset: what this log showed of its compactions applies

    @property
    def shape(self) -> str:
        return SHAPES[self.strategy]


@dataclass(frozen=True)
class Kept:
    tokens: int
    summary_tokens: int
    action: str  # what the compaction will drop or summarise, in words
    basis: str  # where the summary's size comes from


def agent_rule(session: LiveSession) -> Rule:
    """The preset of the agent whose log it is."""
    return rule_for(AGENT_PRESETS[session.agent], {}, session, own=True)


def rule_for(strategy: str, params: dict | None, session: LiveSession, own: bool = False) -> Rule:
    """A what-if (or the agent's own) rule; SettingsError for a strategy the forecast has no rule for or
    parameters the registry refuses."""
    if strategy not in WHAT_IF:
        raise SettingsError(f"the live forecast knows the rules of {', '.join(WHAT_IF)}; got {strategy!r}")
    spec = lookup(strategy)
    given = dict(params or {})
    if own and strategy == "gemini-cli" and _uses_gemma(session):
        given.setdefault("window_tokens", GEMMA_TOKEN_LIMIT)
    values = spec.resolve(given)
    if strategy == "claude-code":
        version = session.facts.get("version") if values["version"] == AUTO else values["version"]
        reserve = values["output_reserve_tokens"] or output_reserve_for(version)
        threshold = values["window_tokens"] - reserve - values["buffer_tokens"]
        label = f"Claude Code {version}" if version else "Claude Code (newest rule)"
    elif strategy == "codex":
        threshold, label = auto_compact_limit(values), "Codex CLI"
    elif strategy == "gemini-cli":
        threshold, label = max(int(values["window_tokens"] * values["threshold_fraction"]), 1), "Gemini CLI"
    else:
        threshold, label = values["trigger"], "API compaction"
    return Rule(strategy, label, threshold, values, own)


def _uses_gemma(session: LiveSession) -> bool:
    newest = session.newest
    return newest is not None and isinstance(newest.model, str) and newest.model.startswith("gemma-4")


def summary_tokens(rule: Rule, session: LiveSession) -> tuple[int, str]:
    """(tokens, where the figure comes from) of the summary the compaction will write."""
    last = session.compactions[-1] if session.compactions and rule.own else None
    if last is not None and rule.strategy == "claude-code":
        if last.post_tokens:
            return last.post_tokens, "what the log's last compaction kept (postTokens)"
        if last.summary_chars:
            return -(-last.summary_chars // CHARS_PER_TOKEN), "the log's last summary (characters / 4)"
        if last.first_call_after and session.base_tokens:
            return max(last.first_call_after - session.base_tokens, 0), "the first call after the log's last compaction"
    if last is not None and rule.strategy == "codex" and last.summary_chars:
        return -(-last.summary_chars // CHARS_PER_TOKEN), "the log's last summary (its encrypted size / 4)"
    default = DEFAULT_SUMMARY[rule.strategy]
    guess = "a guess: no recording gives it" if rule.strategy == "gemini-cli" else "typical of real logs"
    return default, f"{default:,} tokens, {guess}"


def kept(rule: Rule, session: LiveSession, tokens_now: int) -> Kept | None:
    """What the history would hold right after the compaction, from a context of `tokens_now`; None
    before the first call (the system prompt and tools are not known yet)."""
    base = session.base_tokens
    if base is None:
        return None
    summary, basis = summary_tokens(rule, session)
    conversation = max(tokens_now - base, 0)
    part = session.segment
    since = "since the last compaction" if session.compactions else "so far"
    what = f"{part.person_turns:,} turn(s) of the person and {part.tool_results:,} tool result(s) {since}"
    if rule.shape == "summarise_all":
        return Kept(base + summary, summary, f"summarises the whole conversation ({what}: about {conversation:,} "
                    f"tokens beyond the system prompt and tools) into a summary of about {summary:,} tokens; keeps "
                    f"the system prompt and tools (about {base:,} tokens)", basis)
    if rule.shape == "keep_person":
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
