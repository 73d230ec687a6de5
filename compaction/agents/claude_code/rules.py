"""What Claude Code did at each of its versions, as the public logs and its changelog show: when it
auto-compacts, which tool outputs it saves to a file, when it clears old tool results as the context
nears the threshold, and how it re-attaches files after a compaction. Each rule names its evidence; the
preset (preset.py) and the first call after a compaction (after_compaction.py) read them.
"""

import re
from functools import lru_cache

BUFFER_TOKENS = 13_000
WINDOW, LARGE_WINDOW = 200_000, 1_000_000  # Claude's windows (the 1M one: Sonnet 4.x with the 1M beta, Opus 4.7 on)
RESERVE_UNTIL_2_1_6 = 32_000
RESERVE_FROM_2_1_7 = 20_000
RESERVE_CHANGED_IN = (2, 1, 21)  # "Fixed auto-compact triggering too early on models with large output token limits"
_VERSION = re.compile(r"^\s*v?(\d+)\.(\d+)\.(\d+)")

# Tool outputs saved to a file instead of cut: from 2.1.2 ("Changed large tool outputs to be persisted to
# disk instead of truncated"); the default limit was 100K characters until 2.1.50 and 50K from 2.1.51
# (CHANGELOG 2.1.51). Before 2.1.2 the tools cut their own outputs (Bash at 30,000 characters, an MCP result
# over its token limit became an error naming a saved file): what the log holds is what was sent, and the
# public 1.0.80-2.0.76 logs keep Bash, LS, Edit, Write and MCP results of 30,000-151,798 characters whole.
PERSIST_FROM = (2, 1, 2)
PERSIST_LOWERED_IN = (2, 1, 51)
PERSIST_DEFAULT_UNTIL_2_1_50 = 100_000
PERSIST_DEFAULT_FROM_2_1_51 = 50_000
# Limits of their own, as the logs' persisted-output markers show them (2.1.7-2.1.146): Bash and PowerShell
# from 31,744 characters (their 30,000-character output limit), Grep from 21,708 (20,000)
PERSIST_OWN_LIMITS = (("Bash", 30_000), ("PowerShell", 30_000), ("Grep", 20_000))

# Microcompact as the context nears the threshold (Claude Code 2.0.76's own code, as a public
# re-implementation quotes it: above the warning threshold, clear the results of the compactable tools but
# the newest 3, when that saves at least 20,000 tokens, counted as characters / 4). The public logs show
# such drops without a compaction, of 20,975-80,296 recorded tokens at 121-153k, 39 times in 1.0.80-2.1.87,
# yet most of their sessions grow past the warning threshold without one (clearing.py).
WARNING_BELOW_THRESHOLD = 20_000
WARNING_KEEP = 3
WARNING_MIN_SAVING = 20_000

# After a compaction Claude Code re-reads up to 5 of the files read or edited most recently, each up to
# 5,000 tokens, 50,000 in all (POST_COMPACT_MAX_FILES_TO_RESTORE, ..._MAX_TOKENS_PER_FILE, ..._TOKEN_BUDGET
# in its compact.ts, as reverse-engineered; the 2.1.92+ logs' `file` attachments: never more than 5, at most
# 23,289 characters). A longer file (its content, line numbers aside) is not read again up to 2.1.127 (Read
# refuses a file over its token limit; the first calls after fit that best: 82 of 124 within 10 %, against
# 77 cut to the limit); from 2.1.128 it comes back as its path only (`compact_file_reference`).
RESTORE_FILES = 5
RESTORE_TOKENS_PER_FILE = 5_000
RESTORE_BUDGET = 50_000
PATH_ONLY_FROM = (2, 1, 128)
PATH_ONLY_TOKENS = 40  # the reference's words and the path
# Skill bodies re-injected after a compaction: 5,000 tokens each, 25,000 in all (Claude Code's docs, "What
# survives compaction")
SKILL_TOKENS = 5_000
SKILLS_BUDGET = 25_000


def parse_version(text: str | None) -> tuple[int, int, int] | None:
    """(2, 1, 41) for "2.1.41" (a suffix such as "-beta" is ignored); None for anything else."""
    return _parsed(text) if isinstance(text, str) else None


@lru_cache(maxsize=256)
def _parsed(text: str) -> tuple[int, int, int] | None:  # asked at every call of a replay, of a few versions
    found = _VERSION.match(text)
    return tuple(int(part) for part in found.groups()) if found else None  # type: ignore[return-value]


def _before(version: str | None, first: tuple[int, int, int]) -> bool:
    """Whether `version` is known and older than `first` (an unknown version gets the newest rule)."""
    parsed = parse_version(version)
    return parsed is not None and parsed < first


def output_reserve_for(version: str | None) -> int:
    """The room Claude Code kept for the summary's output: 32,000 tokens up to 2.1.20, 20,000 from 2.1.21
    (and for a version not known: the newest rule)."""
    return RESERVE_UNTIL_2_1_6 if _before(version, RESERVE_CHANGED_IN) else RESERVE_FROM_2_1_7


def auto_compact_threshold(version: str | None, window: int = 200_000) -> int:
    """Tokens of the request (messages, system prompt, tools) at which Claude Code `version` compacts:
    window - output reserve - 13,000 buffer. The evidence, every auto compact_boundary of the public logs
    in a 200,000 window (preTokens is Claude Code's count when it decided; it is at or above the
    threshold, by what arrived since the call before, which recorded 153-159k and 159-168k tokens):

    | versions | models | boundaries | preTokens | threshold |
    | --- | --- | --- | --- | --- |
    | 2.0.8 - 2.0.76 | Sonnet 4.5, Opus 4.5 | 57 | 155,007 - 170,104 | 200,000 - 32,000 - 13,000 = 155,000 |
    | 2.1.6, 2.1.7, 2.1.19 | Sonnet 4.5, Opus 4.5 | 9 | 155,089 - 162,193 | 155,000 |
    | 2.1.22, 2.1.27 | Opus 4.5 | 2 | 167,432 - 169,332 | 200,000 - 20,000 - 13,000 = 167,000 |
    | 2.1.41, 2.1.126, 2.1.146 | Sonnet 4.5 | 4 | 167,828 - 170,719 | 167,000 |
    | 2.1.68, 2.1.86, 2.1.128 | Sonnet 4.6 | 4 | 167,602 - 173,429 | 167,000 |
    | 2.1.88, 2.1.92, 2.1.101, 2.1.111 | Haiku 4.5, Opus 4.6, Opus 4.7 | 5 | 167,271 - 170,115 | 167,000 |

    The step is the 2.1.21 entry ("Fixed auto-compact triggering too early on models with large output
    token limits"). It reached users at different times: one user's 2.1.7 sessions compacted at 155,000
    until 2026-01-26 and at 168,127 and 169,492 on 2026-01-27. Claude-desktop Haiku sessions whose fixed base is already
    ~171-179k compact at every call (preTokens 171,501 - 199,719): above any threshold, not a new one.
    1.0.80-1.0.90 (no compact_boundary; 19 summaries) compacted after calls of 153-171k: the earliest rule.
    """
    return window - output_reserve_for(version) - BUFFER_TOKENS


def persist_limits(version: str | None) -> dict[str, int] | None:
    """Characters over which `version` saved a tool's output to a file, by tool ("" for every other
    tool); None before 2.1.2, which saved none."""
    if _before(version, PERSIST_FROM):
        return None
    default = PERSIST_DEFAULT_UNTIL_2_1_50 if _before(version, PERSIST_LOWERED_IN) else PERSIST_DEFAULT_FROM_2_1_51
    return {"": default, **dict(PERSIST_OWN_LIMITS)}


def long_files_path_only(version: str | None) -> bool:
    """Whether a file over the limit comes back as its path (2.1.128 on) or not at all (before)."""
    return not _before(version, PATH_ONLY_FROM)
