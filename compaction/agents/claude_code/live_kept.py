"""What Claude Code's first call after its next compaction carries, for the live forecast: the package's
after-compaction model (after_compaction.py) given what the followed session has shown, since the live
reader keeps no messages:
- where the log's compaction line said what it kept (postTokens), the first call's context and that;
- what every call carries (the system prompt, tools, CLAUDE.md and the start's hook output): the first
  call's context less its prompt;
- the summary: the size the log's version writes (the public logs' median by version), or the log's
  last one when it has shown one;
- the files read, written or edited last (the reader's FileRead events; the plan file and the memory
  index left out, as recent_files.py does), the last plan presented and the last to-do list written.
Characters become tokens at the session's own rate (session.tokens_per_char).
"""

from compaction.agents.claude_code import after_compaction
from compaction.agents.claude_code.live_lines import PLAN_CHARS, TODOS_CHARS
from compaction.agents.claude_code.recent_files import LEFT_OUT, PLANS, RecentFile, path_key
from compaction.live.session import CHARS_PER_TOKEN, LiveSession

# The summary's size before the session has shown one, for the text of the forecast: the median of the
# public logs' summaries (9,840 characters, / 4)
TYPICAL_SUMMARY = 2_460


def recent(session: LiveSession) -> list[RecentFile]:
    """The files Claude Code would attach again, newest first, as far as the session's reads size them."""
    found = []
    for path, chars in reversed(session.files.items()):
        key = path_key(path)
        if PLANS in key or key.rsplit("/", 1)[-1] in LEFT_OUT:
            continue
        found.append(RecentFile(path, chars, None))
    return found


def per_char(session: LiveSession) -> float:
    rate = session.tokens_per_char()
    return rate if rate >= after_compaction.LEAST_TEXT_RATE else after_compaction.DEFAULT_TOKENS_PER_CHAR


def base(session: LiveSession) -> int:
    """The first call's context less its prompt (what was written before it)."""
    return max((session.base_tokens or 0) - round(per_char(session) * session.opening_tokens * CHARS_PER_TOKEN), 0)


def first_call_after(_rule, session: LiveSession, _tokens_now: int) -> tuple[int, str]:
    """(tokens, basis) of the first call after the next compaction. Where the log's compaction line said
    what it kept (postTokens, from 2.1.111: the summary and what was attached), the first call's context
    and that."""
    said = next((c.post_tokens for c in reversed(session.compactions) if c.post_tokens), None)
    if said:
        first = session.base_tokens or 0
        return first + said, f"the first call's {first:,} tokens and the {said:,} the log's last compaction kept (postTokens)"
    last_summary = next((c.summary_chars for c in reversed(session.compactions) if c.summary_chars), None)
    found = after_compaction.first_call_after(
        [], session.facts.get("version"), base_tokens=base(session), tokens_per_char=per_char(session),
        summary_chars=last_summary, recent=recent(session),
        plan_and_todos_chars=(int(session.facts.get(PLAN_CHARS) or 0), int(session.facts.get(TODOS_CHARS) or 0)))
    return found.tokens, f"Claude Code's after-compaction model: {found.basis}"
