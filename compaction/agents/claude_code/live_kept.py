"""What Claude Code's first call after a compaction carries, as the live forecast estimates it from the session
so far (an interim model, from the session's own data, until the after-compaction model of this package takes
its place). Claude Code's docs ("What survives compaction") and its reverse-engineered constants
(research notes, e): the system prompt and tools, unchanged; the project's CLAUDE.md and the opening context,
injected again (both in the first call's context, `base_tokens`); the summary; up to five of the files read
last, each whole when it is at most 5,000 tokens, a path only when it is larger, within 50,000 tokens.
"""

from compaction.live.session import CHARS_PER_TOKEN, LiveSession

FILES_RESTORED = 5  # POST_COMPACT_MAX_FILES_TO_RESTORE
TOKENS_PER_FILE = 5_000  # POST_COMPACT_MAX_TOKENS_PER_FILE: a larger file comes back as its path only
FILES_BUDGET = 50_000  # POST_COMPACT_TOKEN_BUDGET
PATH_ONLY_TOKENS = 30  # a compact_file_reference attachment: a path and its display form
# The summary's size before the session has shown one: the median of the 146 summaries of the public logs
# (9,840 characters, / 4)
TYPICAL_SUMMARY = 2_460


def files_restored(session: LiveSession) -> int:
    """Tokens of the files Claude Code would attach again: the newest FILES_RESTORED of those read or
    edited, at the session's own tokens per character."""
    rate, total = session.tokens_per_char(), 0
    for chars in list(session.files.values())[-FILES_RESTORED:]:
        tokens = round(chars * rate)
        total += tokens if tokens <= TOKENS_PER_FILE else PATH_ONLY_TOKENS
    return min(total, FILES_BUDGET)


def summary_estimate(session: LiveSession) -> tuple[int, str]:
    last_chars = next((c.summary_chars for c in reversed(session.compactions) if c.summary_chars), None)
    rate = session.tokens_per_char()
    if last_chars is not None:
        return round(last_chars * rate), "the log's last summary, at the session's tokens per character"
    chars = TYPICAL_SUMMARY * CHARS_PER_TOKEN
    return round(chars * rate), f"the median summary of the public logs ({chars:,} characters)"


def first_call_after(_rule, session: LiveSession, _tokens_now: int) -> tuple[int, str]:
    """(tokens, basis) of the first call after the next compaction. Where the log's compaction line said what
    it kept (postTokens, from 2.1.111: the summary and what was attached), the first call's context and that."""
    said = next((c.post_tokens for c in reversed(session.compactions) if c.post_tokens), None)
    if said:
        base = session.base_tokens or 0
        return base + said, f"the first call's {base:,} tokens and the {said:,} the log's last compaction kept (postTokens)"
    summary, basis = summary_estimate(session)
    files = files_restored(session)
    base = session.base_tokens or 0
    return base + summary + files, (f"the first call's {base:,} tokens (system prompt, tools, CLAUDE.md), a "
                                    f"summary of {summary:,} ({basis}) and {files:,} of the files read last")
