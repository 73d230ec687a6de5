"""What the first call after a Claude Code compaction carries, from what the log showed so far.

    first_call_after(messages, version, first_call_tokens=..., tokens_per_char=...) -> FirstCallAfter

The call sends, besides nothing of the conversation before (the whole of it is summarised):
- the system prompt, the tools and what Claude Code loads at every start (CLAUDE.md memory, SessionStart
  hook output, the MCP instructions and deferred-tool lists): still cached, the same as at the session's
  first call, so that call's recorded context less its prompt (`base`);
- the summary: its real size when the log holds it (the isCompactSummary line); else the median of the
  public logs' summaries of that version (SUMMARY_CHARS: 163 summaries of 1.0.80-2.1.232);
- the files re-attached (rules.py: up to 5 of the newest read or edited, each up to 5,000 tokens, 50,000
  in all; a longer one left out up to 2.1.127, a path only from 2.1.128): the log's own `file` and
  `compact_file_reference` attachments when it wrote them (2.1.92 on), else those its reads show
  (recent_files.py);
- the plan and the invoked skills' bodies (5,000 tokens each, 25,000 in all), and the to-do list.
Characters become tokens at the session's own rate (its calibration), as every figure of the replay.

Checked on every compaction of the public logs (benchmarks/fidelity_real_logs.py; the preset's notes
give the figures). The replay's Claude Code preset and the live forecast both call it.
"""

import json
from dataclasses import dataclass

from compaction.agents.claude_code import rules
from compaction.agents.claude_code.recent_files import LINE_NUMBER_CHARS, FileReads, RecentFile
from compaction.importers.fields import object_at
from compaction.model.messages import Message, blocks, tool_uses
from compaction.model.sizes import message_size

DEFAULT_TOKENS_PER_CHAR = 0.28  # the public Claude Code logs' calibrations: 0.14-0.80, most 0.23-0.35
# A calibration below this is bent by content that weighs little for its characters (screenshots as
# base64): text (a summary, a file) then counts at the default rate
LEAST_TEXT_RATE = 0.2
# Median summary, in characters of the message (len(str(message))), of the public logs by version
# (series of the rules: measured on the isCompactSummary lines of /work/reallogs/claude_code)
SUMMARY_CHARS = (((1, 0, 0), 8_816, 20), ((2, 0, 0), 9_946, 57), ((2, 1, 0), 10_760, 29), ((2, 1, 92), 10_116, 57))
SKILL_START = "Base directory for this skill:"  # the user line a Skill call expands to
ATTACHED = ("plan_file_reference", "plan_mode", "invoked_skills")  # what a compaction adds besides files
FILES = ("file", "compact_file_reference")
BASE_SHOWN = "as the log's newest compaction showed it"  # base_source of a base that compacting.py measured


@dataclass(frozen=True)
class FirstCallAfter:
    tokens: int  # expected context of the first call after the compaction
    basis: str  # how, in words
    parts: tuple[tuple[str, int], ...]  # (part, tokens): base, summary, files, plan and skills, to-do list
    files: tuple[RecentFile, ...] = ()  # the files modelled as re-attached (when the log did not list them)
    attached: tuple[str, ...] = ()  # the files the log's attachment lines name (when it wrote them)

    def part(self, name: str) -> int:
        return dict(self.parts).get(name, 0)


def text_rate(tokens_per_char: float | None) -> float:
    """The rate at which text (a summary, a file) counts: the session's calibration, unless bent."""
    return tokens_per_char if tokens_per_char and tokens_per_char >= LEAST_TEXT_RATE else DEFAULT_TOKENS_PER_CHAR


def learnt_summary_chars(version: str | None) -> tuple[int, str]:
    """(characters, where from) of a summary the log does not hold, by version."""
    parsed = rules.parse_version(version)
    chosen = SUMMARY_CHARS[-1]
    for row in SUMMARY_CHARS:
        if parsed is not None and parsed >= row[0]:
            chosen = row
    start = ".".join(map(str, chosen[0]))
    return chosen[1], f"the median of {chosen[2]} public logs' summaries from {start} on"


def base_from_first_call(messages: list[Message], first_call_tokens: int, first_call_index: int,
                         tokens_per_char: float, start_attachments: list[dict] | None = None,
                         prompt_chars: int | None = None) -> int:
    """What every call carries besides the conversation: the first call's context less its prompt (and
    less the attachment lines written before it, when the log has them: they are counted apart).
    `prompt_chars`: that prompt's characters (prompt_chars_of), when the caller has them already."""
    prompt = prompt_chars_of(messages, first_call_index) if prompt_chars is None else prompt_chars
    prompt += sum(item.get("chars", 0) for item in start_attachments or ())
    return max(round(first_call_tokens - tokens_per_char * prompt), 0)


def prompt_chars_of(messages: list[Message], first_call_index: int) -> int:
    """The characters of the first call's prompt, as its messages are measured in a history."""
    return sum(message_size(message) + 2 for message in messages[:first_call_index])


def _reloaded(attachments: list[dict] | None, start_attachments: list[dict] | None) -> int | None:
    """Characters of what Claude Code writes again after the summary and also wrote at the start (hook
    output, the deferred tools' and MCP servers' lists): the compaction's own lines when the log holds them,
    else the start's but the skill listing (which the 2.1.92+ logs show at the start only); None when the
    log wrote no attachment lines (before 2.1.92: they are in the base)."""
    if attachments is not None:
        return sum(a.get("chars", 0) for a in attachments if a.get("type") not in FILES + ATTACHED)
    if start_attachments:
        return sum(a.get("chars", 0) for a in start_attachments if a.get("type") != "skill_listing")
    return None


def _file_tokens(files: list[RecentFile], version: str | None, per_char: float) -> tuple[int, int]:
    """(tokens, files counted) of the files Claude Code `version` re-attaches: a file whose content (its
    line numbers aside) is over the limit is not read again (Read refuses it) up to 2.1.127 and comes back
    as its path from 2.1.128; a file of unknown size counts as the median of the logs' attachments, about
    4,900 characters."""
    path_only = rules.long_files_path_only(version)
    total = count = 0
    for file in files:
        chars = file.chars if file.chars is not None else 4_900
        lines = file.lines or chars // 45
        tokens = per_char * chars
        if per_char * (chars - LINE_NUMBER_CHARS * lines) > rules.RESTORE_TOKENS_PER_FILE:
            if not path_only:
                continue
            tokens = rules.PATH_ONLY_TOKENS
        if total + tokens > rules.RESTORE_BUDGET:
            break
        total += round(tokens)
        count += 1
    return total, count


def _attached_files(attachments: list[dict], per_char: float) -> tuple[int, int]:
    total = count = 0
    for item in attachments:
        if item.get("type") == "file":
            total += round(per_char * (item.get("chars", 0) + _line_number_chars(item)))
            count += 1
        elif item.get("type") == "compact_file_reference":
            total += rules.PATH_ONLY_TOKENS
            count += 1
    return total, count


def _line_number_chars(item: dict) -> int:
    """A re-attached file is shown with a line number before each line, as Read shows it."""
    return LINE_NUMBER_CHARS * item["lines"] if isinstance(item.get("lines"), int) else 0


@dataclass(frozen=True)
class Scanned:
    """What the first call after a compaction reads of the messages before it: the files to re-attach
    (newest first), the last plan presented and to-do list written, the skills invoked."""

    files: tuple[RecentFile, ...]
    plan_chars: int | None  # the last plan the agent presented (ExitPlanMode)
    todos_chars: int | None  # the last to-do list it wrote (TodoWrite), as JSON
    skills: tuple[int, ...]  # characters of each invoked skill's newest body

    def skills_tokens(self, per_char: float) -> int:
        """The invoked skills' bodies, each and all capped."""
        return min(sum(min(round(per_char * chars), rules.SKILL_TOKENS) for chars in self.skills),
                   rules.SKILLS_BUDGET)

    def plan_and_todos(self, per_char: float) -> tuple[int, int]:
        """(plan, to-do list) tokens, which Claude Code puts back after a compaction."""
        plan, todos = (round(per_char * chars) if chars is not None else 0 for chars in (self.plan_chars, self.todos_chars))
        return plan, todos


class AfterScan:
    """Scanned, taken in one message at a time: one pass serves a compaction at any call of a session (a
    sweep's cells compact at most of them)."""

    def __init__(self):
        self.files = FileReads()
        self.plan_chars: int | None = None
        self.todos_chars: int | None = None
        self.skills: dict[str, int] = {}  # an invoked skill's first line -> its newest body's characters
        self.taken = 0  # messages added

    def add(self, message: Message) -> None:
        self.taken += 1
        self.files.add(message)
        for use in tool_uses(message):
            given = object_at(use, "input")
            if use.get("name") == "ExitPlanMode" and isinstance(given.get("plan"), str):
                self.plan_chars = len(given["plan"])
            elif use.get("name") == "TodoWrite" and isinstance(given.get("todos"), list):
                self.todos_chars = len(json.dumps(given["todos"], ensure_ascii=False))
        if message.get("role") != "user":
            return
        texts = [message["content"]] if isinstance(message.get("content"), str) else \
            [str(b.get("text", "")) for b in blocks(message) if b.get("type") == "text"]
        here: set[str] = set()
        for text in texts:
            first = text.strip().split("\n", 1)[0]
            if first.startswith(SKILL_START) and first not in here:  # a message's first text of a skill counts
                here.add(first)
                self.skills[first] = len(text)

    def view(self) -> Scanned:
        return Scanned(tuple(self.files.newest(rules.RESTORE_FILES)), self.plan_chars, self.todos_chars,
                       tuple(self.skills.values()))


def scanned(messages: list[Message]) -> Scanned:
    scan = AfterScan()
    for message in messages:
        scan.add(message)
    return scan.view()


def first_call_after(messages: list[Message], version: str | None = None, *, first_call_tokens: int | None = None,
                     first_call_index: int = 1, tokens_per_char: float | None = None,
                     base_tokens: int | None = None, summary_chars: int | None = None,
                     attachments: list[dict] | None = None,
                     start_attachments: list[dict] | None = None, recent: list[RecentFile] | None = None,
                     plan_and_todos_chars: tuple[int, int] | None = None,
                     base_source: str | None = None, scan: Scanned | None = None,
                     prompt_chars: int | None = None) -> FirstCallAfter:
    """The expected tokens of the first call after Claude Code `version` compacts `messages` (every
    message of the session so far, in API form: the log's own, its earlier summaries included).

    `first_call_tokens`: the recorded context of the session's first call, whose assistant message is
    messages[first_call_index] (the messages before it are its prompt); or `base_tokens` given directly
    (what every call carries besides the conversation). `tokens_per_char`: the session's calibration
    (else 0.28). `summary_chars`: the characters of the agent's own summary (len(str(message))) when the
    log holds it; `attachments`: the compaction's attachment lines when the log wrote them (the Claude
    Code reader's boundary "attachments"), `start_attachments` those before the session's first response
    (its metadata "start_attachments"). A reader that keeps no messages (the live forecast) gives what they
    would show instead: `recent`, the files re-attached (newest first), and `plan_and_todos_chars`, the
    characters of the last plan presented and of the last to-do list written. `scan`: the messages already
    scanned (`scanned(messages)`), and `prompt_chars` the first call's prompt (prompt_chars_of), for a caller
    that asks after many prefixes of one session."""
    per_char = text_rate(tokens_per_char)
    if base_tokens is None:
        base_tokens = base_from_first_call(messages, first_call_tokens, first_call_index, per_char,
                                           start_attachments, prompt_chars) if first_call_tokens else 0
        base_words = (f"system prompt and tools {base_tokens:,} (the session's first call, {first_call_tokens:,}, "
                      "less its prompt)" if first_call_tokens else "system prompt and tools unknown (no call recorded)")
    else:
        base_words = f"system prompt and tools {base_tokens:,}" + (f" ({base_source})" if base_source else "")
    if summary_chars is None:
        summary_chars, source = learnt_summary_chars(version)
        summary_words = f"summary {round(per_char * summary_chars):,} ({source}: the log does not hold it)"
    else:
        summary_words = f"summary {round(per_char * summary_chars):,} (the log's own, {summary_chars:,} characters)"
    summary = round(per_char * summary_chars)
    files: list[RecentFile] = []
    reloaded_chars = _reloaded(attachments, start_attachments)
    reloaded = round(per_char * reloaded_chars) if reloaded_chars else 0
    if attachments is not None and any(a.get("type") in FILES for a in attachments):
        file_tokens, count = _attached_files(attachments, per_char)
        files_words = f"{count} file(s) re-attached {file_tokens:,} (the log's attachment lines)"
        extra = sum(round(per_char * a.get("chars", 0)) for a in attachments if a.get("type") in ATTACHED)
        plan_skills, todos = extra, 0
    else:
        if scan is None and (recent is None or plan_and_todos_chars is None or messages):
            scan = scanned(messages)
        files = list(scan.files) if recent is None and scan is not None else (recent or [])[:rules.RESTORE_FILES]
        file_tokens, count = _file_tokens(files, version, per_char)
        files_words = f"{count} file(s) re-attached {file_tokens:,} (the newest its reads and edits show)"
        if plan_and_todos_chars is None and scan is not None:
            plan, todos = scan.plan_and_todos(per_char)
        else:
            plan, todos = (round(per_char * chars) for chars in plan_and_todos_chars or (0, 0))
        plan_skills = plan + (scan.skills_tokens(per_char) if scan is not None else 0)
    parts = (("base", base_tokens), ("reloaded", reloaded), ("summary", summary), ("files", file_tokens),
             ("plan and skills", plan_skills), ("to-do list", todos))
    words = [base_words] + ([f"hook output and tool lists written again {reloaded:,}"] if reloaded else []) + \
        [summary_words, files_words]
    if plan_skills:
        words.append(f"plan and skills {plan_skills:,}")
    if todos:
        words.append(f"to-do list {todos:,}")
    total = sum(tokens for _, tokens in parts)
    named = tuple(a["filename"] for a in attachments or () if a.get("type") in FILES and isinstance(a.get("filename"), str))
    return FirstCallAfter(total, f"{total:,} tokens: " + " + ".join(words), parts, tuple(files), named)
