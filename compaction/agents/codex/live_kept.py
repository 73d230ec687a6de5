"""What Codex counts and carries on with, as the live forecast estimates them from the session so far.

- Its count (usage_rule.py, history.rs): the newest call's tokens and what was written since, plus the
  encrypted reasoning before the person's newest turn (the live reader's EARLIER_REASONING fact).
- The first call after a compaction: the system prompt and tools (the session's `prefix_tokens`), then what
  the compaction kept. A local compaction (compact.rs) keeps the person's newest messages within 20,000
  tokens and a summary; the remote one newer versions ask OpenAI for (every public rollout of cli 0.117 on)
  keeps the person's messages, the assistant's answers and an encrypted summary. The summary's size: the
  session's last one, else about 1,300 tokens (the median encrypted summary of five real compactions).
"""

from compaction.agents.codex.live_lines import EARLIER_REASONING
from compaction.agents.codex.log.compaction import USER_MESSAGE_BUDGET
from compaction.live.session import CHARS_PER_TOKEN, LiveSession

TYPICAL_SUMMARY = 1_300
REMOTE_FROM = (0, 117)  # the first cli version whose public rollouts all compacted remotely


def _version(text) -> tuple[int, ...] | None:
    try:
        return tuple(int(part) for part in str(text).split("-")[0].split(".")[:2])
    except ValueError:
        return None


def remote(session: LiveSession) -> bool:
    version = _version(session.facts.get("version"))
    return version is not None and version >= REMOTE_FROM


def counted(session: LiveSession, context: int, pending: int) -> int:
    return context + pending + int(session.facts.get(EARLIER_REASONING) or 0)


def first_call_after(rule, session: LiveSession, _tokens_now: int) -> tuple[int, str]:
    last_chars = next((c.summary_chars for c in reversed(session.compactions) if c.summary_chars), None)
    summary = -(-last_chars // CHARS_PER_TOKEN) if last_chars else TYPICAL_SUMMARY
    prefix = session.prefix_tokens or session.base_tokens or 0
    person = sum(session.person_tokens)
    if remote(session):
        answers = sum(session.answer_tokens)
        return prefix + person + answers + summary, (
            f"the system prompt and tools ({prefix:,}), the person's messages ({person:,}), the answers "
            f"({answers:,}) and an encrypted summary of about {summary:,} tokens (a remote compaction, cli 0.117 on)")
    budget = rule.params.get("user_message_budget_tokens", USER_MESSAGE_BUDGET)
    kept = min(person, budget)
    return prefix + kept + summary, (f"the system prompt and tools ({prefix:,}), the person's newest messages "
                                     f"({kept:,}, at most {budget:,}) and a summary of about {summary:,} tokens")
