"""What fills a followed session's context now, as far as the follower knows it, and what the agent's
next compaction would take of it. The follower keeps numbers, not messages (session.py), so the kinds are
the few it can tell apart:

- the system prompt and tools: the first call's context (it also holds the first prompt);
- the summary the agent's last compaction left (the rule's own figure for it: rules.summary_tokens);
- the person's turns and the tool results written since that compaction (characters / 4);
- the agent's own output since: every call's recorded output tokens (its replies, thinking, tool calls);
- the rest: what the newest call carried beyond those (attachments, the estimates' error); when the parts
  come to more than the context, the estimated ones (summary, person, tool results) are scaled down.
  After the agent's own compaction, the rest is what the forecast's kept tokens hold beyond the kinds kept and the new
  summary (the files the agent reads again, its attachments).

What the next compaction takes follows the rule's shape (rules.py): summarise everything but the system
prompt and tools; drop all but the person's newest messages within its budget; or summarise the oldest
share of every kind (the kinds spread evenly over the history: an approximation, said so on the page).
"""

from dataclasses import dataclass

from compaction.live.forecast import Forecast
from compaction.live.rules import KEEP_NEWEST, KEEP_PERSON, Rule, kept, summary_tokens
from compaction.live.session import CHARS_PER_TOKEN, LiveSession
from compaction.measures.composition import NOT_IN_LOG, PERSON, REPLIES, SUMMARIES, SYSTEM, TOOL_RESULTS

LIVE_KINDS = (SYSTEM, SUMMARIES, PERSON, REPLIES, TOOL_RESULTS, NOT_IN_LOG)
LIVE_TITLES = {SYSTEM: "system prompt and tools (first call)", SUMMARIES: "summary of the last compaction",
               PERSON: "the person's turns", REPLIES: "the agent's output (replies, thinking, tool calls)",
               TOOL_RESULTS: "tool results", NOT_IN_LOG: "the rest (not measured)"}


@dataclass(frozen=True)
class LiveComposition:
    call: int  # the newest call's number (1 for the first)
    tokens: int  # the context the next call starts from (the forecast's tokens now)
    kinds: dict[str, int]  # LIVE_KINDS -> tokens, summing to `tokens`
    taken: dict[str, int]  # of each kind, what the next compaction takes
    after: dict[str, int]  # what the history holds right after it (the new summary under SUMMARIES)
    label: str  # the rule's, with the agent's version when known
    action: str  # what it drops or summarises, in words


def _output_since(session: LiveSession) -> int:
    """Output tokens of the calls since the agent's last compaction (the newest call's included)."""
    calls, segment = session.calls, len(session.compactions)
    total, index = 0, len(calls) - 1
    while index >= 0:
        call = calls[index]
        if call.segment != segment:
            break
        total += call.output
        index -= 1
    return total


def _parts(session: LiveSession, rule: Rule, tokens: int) -> dict[str, int]:
    base = min(session.base_tokens or 0, tokens)
    segment = session.segment
    person_turns = list(session.person_tokens)[-segment.person_turns:] if segment.person_turns else []
    written = -(-segment.chars // CHARS_PER_TOKEN)
    results = max(written - sum(person_turns), 0)
    if not session.compactions and person_turns and len(session.person_tokens) == segment.person_turns:
        person_turns = person_turns[1:]  # the first prompt is in the first call's context already
    estimated = {SUMMARIES: summary_tokens(rule, session)[0] if session.compactions else 0,
                 PERSON: sum(person_turns), TOOL_RESULTS: results}
    output = min(_output_since(session), tokens - base)
    room = tokens - base - output
    measured = sum(estimated.values())
    if measured > room:  # the estimates overshoot what the call carried: scaled down to fit
        estimated = {kind: value * room // measured for kind, value in estimated.items()}
    parts = {SYSTEM: base, **estimated, REPLIES: output}
    parts[NOT_IN_LOG] = tokens - sum(parts.values())
    return {kind: parts[kind] for kind in LIVE_KINDS}


def _taken(rule: Rule, parts: dict[str, int]) -> dict[str, int]:
    if rule.shape == KEEP_NEWEST:
        share = rule.params["preserve_fraction"]
        return {kind: 0 if kind == SYSTEM else round(value * (1 - share)) for kind, value in parts.items()}
    taken = {kind: 0 if kind == SYSTEM else value for kind, value in parts.items()}
    if rule.shape == KEEP_PERSON:
        taken[PERSON] = max(parts[PERSON] - rule.params["user_message_budget_tokens"], 0)
    return taken


def live_composition(session: LiveSession, rule: Rule, found: Forecast) -> LiveComposition | None:
    """The composition of `found.tokens_now` (the forecast of `rule` on `session`), or None before the
    first call."""
    if found.tokens_now is None or session.newest is None:
        return None
    tokens = found.tokens_now
    parts = _parts(session, rule, tokens)
    taken = _taken(rule, parts)
    after = {kind: value - taken[kind] for kind, value in parts.items()}
    compacted = kept(rule, session, tokens)
    if compacted is not None:
        after[SUMMARIES] += compacted.summary_tokens
        # what the agent carries on with beyond the kinds kept and its summary (the files it reads again, its
        # attachments: the forecast's kept tokens from the session's evidence) is the part not measured
        if rule.own:
            extra = compacted.tokens - sum(after.values())
            after[NOT_IN_LOG] = max(after[NOT_IN_LOG] + extra, 0)
    return LiveComposition(session.newest.number, tokens, parts, taken, after, found.label,
                           found.action or "")
