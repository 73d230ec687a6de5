"""The Claude Code preset's sources and notes (docs/strategies.md is written from them): each layer, the
version it changed at and the evidence, and how close the replay comes on the public logs."""

from compaction.strategies.spec import Source

SOURCES = (
    Source("Claude Code docs: How Claude Code works, when the context fills up",
           "https://code.claude.com/docs/en/how-claude-code-works"),
    Source("Claude Code docs: the context window, what survives compaction (files, skills 5,000 tokens each "
           "and 25,000 in all, the plan)", "https://code.claude.com/docs/en/context-window"),
    Source("Claude Code CHANGELOG (outputs persisted from 2.1.2, 50K characters from 2.1.51; the reserve in "
           "2.1.21)", "https://github.com/anthropics/claude-code/blob/main/CHANGELOG.md"),
    Source("Public Claude Code logs measured for this project (313 main sessions, 18 repositories, versions "
           "1.0.80 to 2.1.232; the notes give the figures; benchmarks/fidelity_real_logs.py)", ""),
    Source("Harness engineering from Claude Code, ch. 9: Auto-compaction (reverse engineering)",
           "https://zhanghandong.github.io/harness-engineering-from-cc-to-ai-coding/en/part3/ch09.html"),
    Source("Harness engineering from Claude Code, ch. 10: what is restored after compaction (5 files, 5,000 "
           "tokens each, 50,000 in all; plan and memory files left out)",
           "https://zhanghandong.github.io/harness-engineering-from-cc-to-ai-coding/en/part3/ch10.html"),
    Source("Harness engineering from Claude Code, ch. 11: Micro-compaction (reverse engineering)",
           "https://zhanghandong.github.io/harness-engineering-from-cc-to-ai-coding/en/part3/ch11.html"),
    Source("Claude Code source as published: services/compact/timeBasedMCConfig.ts (idle clearing: off, "
           "60 minutes, keep 5)", "https://tangled.org/oppi.li/claude-code/blob/main/services/compact/timeBasedMCConfig.ts"),
)

REVERSE_ENGINEERED = (
    "The auto-compact threshold's form: window - min(output limit, reserve) - 13,000 tokens; the logs fix "
    "the reserve (32,000 up to 2.1.20, 20,000 from 2.1.21) but not the model's output limit, which never bound "
    "here.",
    "Microcompact near the threshold (2.0.76's code as a re-implementation quotes it: over the warning "
    "threshold, all but the newest 3 results of the compactable tools, when that saves 20,000 tokens) and its "
    "tools (Read, shell, Grep, Glob, WebSearch, WebFetch, Edit, Write); the idle clearing's 60 minutes and 5 "
    "kept (a remote flag, off by default), and the count trigger (12 whole results, 5 kept); Claude Code also "
    "clears through the API's cache edits, which a log does not show.",
    "What is re-attached after a compaction: up to 5 files (POST_COMPACT_MAX_FILES_TO_RESTORE), 5,000 tokens "
    "each, 50,000 in all; the 2.1.92+ logs' attachment lines confirm the 5 and the order.",
    "The summary message's opening sentence (as Claude Code logs show it).",
)

NOTES = (
    "Order before each call: persist the newest outputs, the idle clearing and microcompact by count (both "
    "off), microcompact near the threshold, then auto-compact when the whole request (messages, system "
    "prompt, tools) reaches the threshold; every change is permanent.",
    "Auto-compact threshold (auto_compact_threshold): 155,000 tokens of a 200,000 window up to 2.1.20, "
    "167,000 from 2.1.21 (CHANGELOG: \"Fixed auto-compact triggering too early on models with large output "
    "token limits\"). Evidence: the public logs' auto compact_boundary records carry preTokens 155,007-170,104 "
    "in 2.0.8-2.1.19 (66 boundaries) and 167,068-173,429 in 2.1.22-2.1.148 (not counting Haiku sessions whose "
    "fixed base is already over the threshold and compact at every call); the change reached one user's "
    "2.1.7 on 2026-01-27 (168,127 and 169,492; 155,089-162,193 before); 1.0.80-1.0.90, which write no "
    "compact_boundary, compacted after calls of 153-171k. With `version` auto the log's version chooses; "
    "with `window_tokens` 0 the window is 1,000,000 when the log recorded a call over 200,000 tokens (the "
    "2.1.2xx Opus 4.8 and 5 logs reach 679k without compacting).",
    "Outputs saved to a file, as the version did (persist_threshold 0): none before 2.1.2 (the tools cut "
    "their own outputs: the 1.0.80-2.0.76 logs keep Bash results cut at 30,000 characters and LS, Edit, Write "
    "and MCP results of 30,000-151,798 characters whole); from 2.1.2 Bash and PowerShell over 30,000 "
    "characters (the logs' persisted-output markers from 31,744), Grep over 20,000 (from 21,708), other tools "
    "over 100,000, 50,000 from 2.1.51 (CHANGELOG). Read, subagent reports and the editing tools' results are "
    "sent whole (a 2.1.143 Edit result of 119,474 characters).",
    "Microcompact near the threshold (warning_microcompact auto): where the log shows it. Evidence: the logs "
    "show drops without a compaction of 20,975-80,296 recorded tokens, mostly from 121-153k, 39 times in "
    "1.0.80-2.1.87 (the cache read falling to the system prompt), yet most sessions grow past 2.0.76's "
    "warning threshold (135,000) without one: its own rule (`on`) cleared where the agent kept, so by default "
    "the preset clears (all but the newest 3 results of the compactable tools) at the calls where the log's "
    "context fell 20,000 tokens or more, once its history has parted from the agent's (before, the log's own "
    "counts hold the drop). Microcompact by count is off: no log shows it. Explicit microcompact_boundary "
    "records appear only in 2.1.19 and 2.1.41 (3 records).",
    "The idle clearing is off: of 31 gaps of over an hour between calls (no compaction, rewind or model "
    "switch between), 3 are followed by a drop with the cache read falling to the system prompt (2.0.76, "
    "2.1.86, 2.1.92); the other 28 (2.0.76-2.1.146) grow on.",
    "After a compaction the first call carries (after_compaction.py, exposed as first_call_after for the "
    "live forecast): the system prompt and tools, still cached (the session's first call less its prompt "
    "and the attachment lines before it; from the second compaction on, as the log's newest earlier "
    "compaction showed it: its first recorded call after, less the parts below and the messages sent "
    "before it, since the fixed part changes within a session: tools deferred to a tool search, MCP servers "
    "connected, a model switch; one 2.1.101 session went from 168,900 to about 38,000 tokens at a "
    "compaction); the summary at its real size where the log holds it (its isCompactSummary line; the "
    "replay's summariser writes the text), else the median of the public logs' summaries of that version "
    "(8,816 characters for 1.0, 9,946 for 2.0, 10,760 for 2.1.0-2.1.91, 10,116 from 2.1.92); the files "
    "read again: the log's own file attachment lines from 2.1.92, else the 5 newest files its reads and "
    "edits show (the plan file it wrote, MEMORY.md and failed reads left out; a file the log showed only in "
    "parts taken as long as the furthest line seen at the mean length of the lines seen: on the 18 "
    "compactions of 2.1.92+ logs that list their files, the modelled files' tokens came to 90 % of the "
    "attachment lines' in all, 84 % before, median error 22 %, 27 % before), a file over 5,000 tokens "
    "left out up to 2.1.127 and a path only from 2.1.128, 50,000 in all (the 2.1.92+ logs: never more than "
    "5 files, in the order of the reads and edits; cutting long files to 5,000 tokens or sending them "
    "whole fit worse, 83 and 68 first calls after within 10 % against 87 before the base rule, and so did "
    "filling their places with older files, 90 against 92); the plan, the invoked skills (5,000 tokens each, 25,000 in all) and the to-do list; and "
    "what Claude Code writes again (hook output, the deferred tools' and MCP servers' lists: the 2.1.92+ "
    "logs' attachment lines; before, the same as at the start, in the base). Checked on every compaction "
    "of the public logs with a recorded call after it (benchmarks/fidelity_real_logs.py): within 10 % of "
    "the recorded context in 92 of 136 (11 of 19 in 1.0, 39 of 56 in 2.0, 8 of 11 in 2.1.0-2.1.20, 7 of "
    "14 in 2.1.21-2.1.91, 27 of 36 from 2.1.92, where the log writes its attachment lines; on two halves "
    "of the files chosen by name, 47 of 74 and 45 of 62); 87 of 136 before the base the log showed and the "
    "files read in parts, 15 of 118 before the parts were modelled (the summary's characters / 4). The 44 "
    "misses by cause: 24 carry too little where the log writes no attachment lines (2.0-2.1.91 first "
    "compactions mostly, 12-22 % short; the first calls after there carry a median 2,000-3,000 tokens more "
    "than the parts above, more when files over the limit were left out, which the log cannot show), 10 "
    "too much there (files modelled that did not come back whole, sessions resumed from another), 9 are "
    "sessions whose fixed part is near the threshold or changed at that very compaction (the Haiku "
    "sessions of one user with 170,000 tokens of tools, which compact at every call), 1 other. No log "
    "that auto-compacted also compacted by hand: /compact plays no part in these figures.",
    "After the histories part (the preset's first change, or the log's first compaction) a call's tokens are "
    "counted from the log's own growth (model/message_tokens.py): each stretch between two recorded calls "
    "weighs what the context grew by, so a compaction at another call than the agent's grows as the agent's "
    "did. The one calibrated rate it replaces ran at 72-88 % of the real growth after the first compaction "
    "(screenshots' base64 and content unlike the session's start).",
    "Checked on the 140 auto compactions of the 106 public logs that have them, replayed at the defaults "
    "(benchmarks/fidelity_real_logs.py): within 3 calls of the log's own in 124 (on two halves of the "
    "files, 68 of 75 and 56 of 65; the later compactions: 20 of 34); before: 97 of 128 (later ones 12 of "
    "32; 1.0.x compactions were not read). The 16 misses by cause: 6 follow the previous first call "
    "after's error (the growth after it is the log's own, so an error there shifts every later call by "
    "as much: 9,330 tokens 13 % short after one 2.0.76 compaction, 5 calls late at the next), 5 where "
    "the fixed part is near the threshold or changed (two of them 2.1.19 sessions that start at 171,000 "
    "tokens and compact 200 calls later: a threshold of their own), 3 where the context grows by 600-1,200 "
    "tokens a call near the threshold (1 % of it is then 2-3 calls), 2 where the preset never reached the "
    "threshold again before the log ended. Before the log's first compaction the preset changes what the "
    "agent kept in 4 of 302 logs (a compaction more than 3 calls early: sessions whose own threshold was "
    "higher, a 1M window not yet visible or a proxied model), against 62 before (35 saving outputs the "
    "version kept, 27 compacting early or where the agent never did).",
    "Claude Code counts the context from the newest response's usage: before the session's first response, "
    "and right after a compaction, it has only its estimate of the messages, so it does not compact then. A "
    "session whose tools alone pass the threshold (a 2.1.101 Haiku session's 168,900) therefore compacts "
    "after every call, each first call after carrying what it kept, still over the threshold (a thrash). "
    "Where the log compacts several times within 3 calls (or within 3 calls of the start), the preset carries "
    "on with what the log's first call after each carried; elsewhere its system prompt and tools are no "
    "larger than the log's own first call after a compaction nearby shows (a resumed session's first call "
    "carries its earlier conversation too). On the held-out part of the public logs split by repository "
    "(benchmarks/holdout.py) this took the automatic compactions matched within 3 calls from 51 to 57 of 70 "
    "and the first calls after within 10 % from 34 to 50 of 66.",
)
