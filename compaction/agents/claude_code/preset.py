"""Claude Code's own compaction, with its defaults taken from what public Claude Code logs show (51
files, 54 compact_boundary records, versions 1.0.98 to 2.1.146): big tool outputs go to a file with a
preview; auto-compact summarises the whole conversation once the request reaches the window minus an
output reserve (which changed in 2.1.7) minus a 13,000-token buffer; microcompact, which clears old
tool results, is off by default because most logs never show it (both of its triggers are kept)."""

import re
from datetime import datetime

from compaction.agents.claude_code.markers import CLEARED, SUMMARY_PREFIX
from compaction.layers.persist import persisted_marker
from compaction.layers.summary import summarize_into
from compaction.model.events import PersistedOutput
from compaction.model.history import History, result_positions
from compaction.model.messages import content_chars, content_text
from compaction.model.sizes import message_size
from compaction.storage.outputs import OutputStore
from compaction.strategies import actions
from compaction.strategies.base import Step
from compaction.strategies.clearing import clear_beyond_newest, results_of
from compaction.strategies.edits import tool_names_match
from compaction.strategies.memo import memo_key
from compaction.strategies.params import Param
from compaction.strategies.spec import Source, StrategySpec

# The results Claude Code's microcompact may clear (COMPACTABLE_TOOLS of its microCompact.ts); the
# 2.1.41 microcompact_boundary records list Edit results among the cleared ones, so not only readers.
MICROCOMPACT_TOOLS = ("Read", "Bash", "Grep", "Glob", "WebSearch", "WebFetch", "Edit", "Write")
# Outputs Claude Code sends whole however long: of the 34 results over 30,000 characters in the public
# logs, 33 are Read (it limits itself), Task or TaskOutput (a subagent's report), none saved to a file;
# the files' persisted-output markers are all on Bash and Grep results.
PERSIST_EXEMPT_TOOLS = ("Read", "Task", "TaskOutput")
BUFFER_TOKENS = 13_000
RESERVE_UNTIL_2_1_6 = 32_000
RESERVE_FROM_2_1_7 = 20_000
RESERVE_CHANGED_IN = (2, 1, 7)
AUTO = "auto"
_VERSION = re.compile(r"^\s*v?(\d+)\.(\d+)\.(\d+)")


def parse_version(text: str | None) -> tuple[int, int, int] | None:
    """(2, 1, 41) for "2.1.41" (a suffix such as "-beta" is ignored); None for anything else."""
    found = _VERSION.match(text) if isinstance(text, str) else None
    return tuple(int(part) for part in found.groups()) if found else None  # type: ignore[return-value]


def output_reserve_for(version: str | None) -> int:
    """The room Claude Code kept for the summary's output: 32,000 tokens up to 2.1.6, 20,000 from 2.1.7
    (and for a version not known: the newest rule)."""
    parsed = parse_version(version)
    return RESERVE_UNTIL_2_1_6 if parsed is not None and parsed < RESERVE_CHANGED_IN else RESERVE_FROM_2_1_7


def auto_compact_threshold(version: str | None, window: int = 200_000) -> int:
    """Tokens of the request (messages, system prompt, tools) at which Claude Code `version` compacts:
    window - output reserve - 13,000 buffer. The evidence, every auto compact_boundary of the public logs
    in a 200,000 window (preTokens is Claude Code's count when it decided; it is at or above the
    threshold, by what arrived since the call before, which recorded 153-159k and 159-168k tokens):

    | versions | models | boundaries | preTokens | threshold |
    | --- | --- | --- | --- | --- |
    | 2.0.53, 2.0.69, 2.0.72, 2.0.76 | Opus 4.5 | 6 | 155,040 - 159,869 | 200,000 - 32,000 - 13,000 = 155,000 |
    | 2.1.6 | Sonnet 4.5 | 1 | 155,703 | 155,000 |
    | 2.1.7, 2.1.22 | Opus 4.5 | 2 | 167,432 - 168,127 | 200,000 - 20,000 - 13,000 = 167,000 |
    | 2.1.41, 2.1.126, 2.1.146 | Sonnet 4.5 | 4 | 167,828 - 170,719 | 167,000 |
    | 2.1.68, 2.1.86, 2.1.128 | Sonnet 4.6 | 4 | 167,602 - 173,429 | 167,000 |
    | 2.1.88, 2.1.92, 2.1.101, 2.1.111 | Haiku 4.5, Opus 4.6, Opus 4.7 | 5 | 167,271 - 170,115 | 167,000 |

    One user's 2.1.19 (Opus 4.5, 2 boundaries at 155,800 and 155,933) still compacted at 155,000: the
    change reached users at different times. Claude-desktop Haiku sessions whose fixed base is already
    ~171-179k compact at every call (preTokens 171,501 - 199,719): above any threshold, not a new one.
    No 1.0.x log compacts; they get the earliest rule.
    """
    return window - output_reserve_for(version) - BUFFER_TOKENS


def _log_version(history: History) -> str | None:
    version = history.recorded.agent_version  # the Claude Code importer's metadata["agent_version"]
    return version if isinstance(version, str) else None


def _seconds(text: str | None) -> float | None:
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() if text else None
    except (AttributeError, ValueError):
        return None


def idle_seconds(history: History) -> float | None:
    """Seconds from the newest assistant message of `history` to the call about to be made (the time of
    the response it produced, as the log wrote it); None when the log has no times for them."""
    times, origins = history.recorded.timestamps, history.origins
    newest = next((origin for origin in reversed(origins) if origin is not None), None)
    if not times or newest is None or newest >= len(times):
        return None
    now = _seconds(times[newest + 1] if newest + 1 < len(times) else times[newest])
    then = None
    for position in range(len(origins) - 1, -1, -1):  # the last response is a message or two back
        origin = origins[position]
        if origin is not None and origin < len(times) and history.messages[position].get("role") == "assistant":
            then = _seconds(times[origin])
            break
    return now - then if now is not None and then is not None else None


def persist_outputs(history: History, threshold: int, preview_chars: int, exempt: tuple[str, ...],
                    store: OutputStore | None) -> tuple[History, list[PersistedOutput]]:
    """Each result of the newest message longer than `threshold` characters, of a tool not `exempt`,
    saved to a file with a `preview_chars` preview in its place (Claude Code persists result by result)."""
    position = len(history.messages) - 1
    if position < 0:
        return history, []
    blocks = result_positions(history, position)
    message, origin = history.messages[position], history.origins[position]
    found = []
    for j in blocks:
        block = message["content"][j]
        tool, chars = history.tool_name(str(block.get("tool_use_id", "x")), origin), content_chars(block.get("content", ""))
        if chars > threshold and not tool_names_match(tool, exempt):
            found.append((chars, j, block, tool))
    found.sort(key=lambda item: -item[0])  # largest first, as the tutorial's layer writes them
    if not found:
        return history, []
    store = store or OutputStore.temporary()
    content, events = list(message["content"]), []
    for _, j, block, tool in found:
        tool_use_id, output = str(block.get("tool_use_id", "x")), content_text(block.get("content", ""))
        stored = store.persist(tool_use_id, output, tool)  # the store writes a file once
        marker = persisted_marker(stored.path, output, preview_chars)
        others = [b for b in block["content"] if not (isinstance(b, dict) and b.get("type") == "text")] \
            if isinstance(block.get("content"), list) else []  # images stay beside the preview
        content[j] = {**block, "content": [{"type": "text", "text": marker}, *others] if others else marker}
        events.append(PersistedOutput(origin, tool_use_id, tool, len(output), stored.bytes, stored.path, marker))
    messages, sizes = list(history.messages), list(history.sizes)
    messages[position] = {**message, "content": content}
    sizes[position] = message_size(messages[position])
    return history.derive(messages, sizes, list(history.origins)), events


def _claude_code(params: dict):
    counted, idle = memo_key("claude-code", params), memo_key("claude-code-idle", params)
    tools = tuple(params["microcompact_tools"])
    compactable = results_of(lambda name: tool_names_match(name, tools), CLEARED)
    placeholder = lambda block: CLEARED  # noqa: E731
    chosen = None if params["version"] == AUTO else params["version"]

    def threshold(history: History) -> int:
        reserve = params["output_reserve_tokens"] or output_reserve_for(chosen or _log_version(history))
        return params["window_tokens"] - reserve - params["buffer_tokens"]

    def step(history: History, settings, store=None, summarizer=None) -> Step:
        acted: list[str] = []
        events: list = []
        history, persisted = persist_outputs(history, params["persist_threshold"], params["preview_chars"],
                                             tuple(params["persist_exempt_tools"]), store)
        if persisted:
            acted.append("persist")
            events += persisted
        if params["idle_microcompact"]:
            gap = idle_seconds(history)
            if gap is not None and gap > 60 * params["idle_minutes"]:  # the cache has expired anyway
                history, cleared = clear_beyond_newest(history, idle, compactable, params["idle_keep"],
                                                       params["idle_keep"], placeholder, "microcompact")
                if cleared:
                    acted.append("microcompact")
                    events += cleared
        if params["microcompact"]:
            history, cleared = clear_beyond_newest(history, counted, compactable, params["microcompact_trigger"],
                                                   params["microcompact_keep"], placeholder, "microcompact")
            if cleared:
                acted.append("microcompact")
                events += cleared
        tokens, limit = history.context_tokens, threshold(history)
        if tokens >= limit and history.messages:
            reason = f"{tokens:,} tokens >= auto-compact threshold {limit:,}"
            result = summarize_into(history, len(history.messages), SUMMARY_PREFIX, reason,
                                    "auto_compact", summarizer, store)
            history = result.history
            acted.append("auto_compact")
            events += result.events
        return Step(history, tuple(acted), tuple(events))
    return step


def _rule(params: dict) -> str | None:
    if params["version"] != AUTO and parse_version(params["version"]) is None:
        return f"version must be {AUTO!r} or a Claude Code version such as 2.1.41, got {params['version']!r}"
    reserve = params["output_reserve_tokens"] or RESERVE_UNTIL_2_1_6  # the larger reserve a log may choose
    if params["window_tokens"] - reserve - params["buffer_tokens"] < 1:
        return "window_tokens must be larger than output_reserve_tokens + buffer_tokens (32,000 when 0)"
    if params["microcompact_keep"] > params["microcompact_trigger"]:
        return "microcompact_keep must not be larger than microcompact_trigger"
    return None


CLAUDE_CODE = StrategySpec(
    name="claude-code", label="Claude Code", title="Claude Code: persisted outputs, microcompact and auto-compact",
    actions=(actions.PERSIST, actions.MICROCOMPACT, actions.AUTO_COMPACT),
    family="Claude Code",
    description="Saves tool outputs over 30,000 characters (not file reads or subagent reports) to a file with a "
                "2,000-character preview and summarises the whole conversation when it nears the window, where "
                "the log's Claude Code version did; clearing old tool results (microcompact) is optional.",
    params=(
        Param("version", AUTO, "text", "The Claude Code version whose rules apply: `auto` takes the log's "
              "version when the replay knows it, else the newest rule; or a version such as 2.0.76."),
        Param("window_tokens", 200_000, "int", "The model's context window (every public log ran in 200,000).",
              "tokens", 1_000, 10_000_000),
        Param("output_reserve_tokens", 0, "int", "Room kept for the summary's own output; 0: as the version did "
              "(32,000 up to 2.1.6, 20,000 from 2.1.7).", "tokens", 0, 1_000_000),
        Param("buffer_tokens", BUFFER_TOKENS, "int", "Auto-compact fires this far below the window minus the "
              "reserve.", "tokens", 0, 1_000_000),
        Param("persist_threshold", 30_000, "int", "A tool output longer than this goes to a file.", "characters",
              1, 1_000_000_000),
        Param("preview_chars", 2_000, "int", "Characters of a saved output kept in the conversation.",
              "characters", 0, 1_000_000),
        Param("persist_exempt_tools", PERSIST_EXEMPT_TOOLS, "names", "Tools whose outputs are sent whole however "
              "long (case ignored; read_file counts as Read)."),
        Param("idle_microcompact", False, "bool", "After an idle gap, clear all but the newest `idle_keep` results "
              "of the tools below (off: most logs show no drop after gaps of over an hour)."),
        Param("idle_minutes", 60, "int", "The gap since the last response after which the idle clearing acts.",
              "minutes", 1, 100_000),
        Param("idle_keep", 5, "int", "Newest results of those tools the idle clearing keeps whole.", "tool results",
              0, 100_000),
        Param("microcompact", False, "bool", "Clear old results of the tools below by count (off: the logs show "
              "the context growing without such drops until the compaction)."),
        Param("microcompact_tools", MICROCOMPACT_TOOLS, "names", "Tools whose old results microcompact clears "
              "(case ignored; read_file counts as Read)."),
        Param("microcompact_trigger", 12, "int", "Microcompact acts once more results of those tools than this are "
              "whole.", "tool results", 0, 100_000),
        Param("microcompact_keep", 5, "int", "Newest results of those tools it keeps whole.", "tool results", 0,
              100_000),
    ),
    make=_claude_code, rule=_rule,
    sources=(Source("Claude Code docs: How Claude Code works, when the context fills up",
                    "https://code.claude.com/docs/en/how-claude-code-works"),
             Source("Public Claude Code logs measured for this project (51 files, 9 repositories, versions 1.0.98 "
                    "to 2.1.146; the notes above give the figures)", ""),
             Source("Harness engineering from Claude Code, ch. 9: Auto-compaction (reverse engineering)",
                    "https://zhanghandong.github.io/harness-engineering-from-cc-to-ai-coding/en/part3/ch09.html"),
             Source("Harness engineering from Claude Code, ch. 11: Micro-compaction (reverse engineering)",
                    "https://zhanghandong.github.io/harness-engineering-from-cc-to-ai-coding/en/part3/ch11.html"),
             Source("Claude Code source as published: services/compact/timeBasedMCConfig.ts (idle clearing: off, "
                    "60 minutes, keep 5)",
                    "https://tangled.org/oppi.li/claude-code/blob/main/services/compact/timeBasedMCConfig.ts")),
    reverse_engineered=(
        "The auto-compact threshold's form: window - min(output limit, reserve) - 13,000 tokens; the logs fix "
        "the reserve (32,000 up to 2.1.6, 20,000 from 2.1.7) but not the model's output limit, which never "
        "bound here.",
        "Persisting outputs over 30,000 characters with a 2,000-character preview.",
        "Microcompact's tools (Read, shell, Grep, Glob, WebSearch, WebFetch, Edit, Write), its text `[Old tool "
        "result content cleared]`, the idle clearing's 60 minutes and 5 kept (a remote flag, off by default), "
        "and the count trigger (12 whole results, 5 kept); Claude Code also clears through the API's cache "
        "edits, which a log does not show.",
        "The summary message's opening sentence (as Claude Code logs show it).",
    ),
    notes=("Order before each call: persist the newest outputs, the idle clearing, microcompact by count, then "
           "auto-compact when the whole request (messages, system prompt, tools) reaches the threshold; every "
           "change is permanent.",
           "Auto-compact threshold (auto_compact_threshold): 155,000 tokens of a 200,000 window up to 2.1.6, "
           "167,000 from 2.1.7. Evidence: the public logs' auto compact_boundary records carry preTokens "
           "155,040-159,869 in 2.0.53-2.1.6 (7 boundaries, Opus 4.5 and Sonnet 4.5) and 167,271-173,429 in "
           "2.1.7-2.1.146 (15 boundaries; Opus 4.5-4.7, Sonnet 4.5-4.6, Haiku 4.5; not counting Haiku sessions "
           "whose fixed base is already over the threshold and compact at every call); one user's "
           "2.1.19 still compacted at ~155,800. With `version` auto the log's version chooses.",
           "Outputs over 30,000 characters are saved to a file except those of Read, Task and TaskOutput: of "
           "the 34 results over 30,000 characters in the public logs, 33 are of those tools and were sent whole, "
           "and every persisted-output marker in the logs is on a Bash or Grep result.",
           "Checked on the 17 public logs with an auto compaction and a calibrated token model, replayed with "
           "their own version: the preset first compacts at the log's boundary call in 7, within 3 calls in 12, "
           "within 4 in 15; the misses are 9 and 18 calls late (calibrations 12 % and 4 % off). With the former "
           "defaults (microcompact by count, every long output saved, 167,000 for every version) 2 were within "
           "4 calls and 4 never compacted.",
           "Microcompact by count is off: in the 2.0.x logs the recorded context grows without a drop until the "
           "compaction. Explicit microcompact_boundary records appear only in 2.1.19 and 2.1.41 (3 records: "
           "23-46 of the oldest results cleared, 21,761-25,142 tokens saved, 0.2-0.9 s after the previous "
           "response): a clearing by amount, not by count, seen in 2 of 34 sessions.",
           "The idle clearing is off: of 31 gaps of over an hour between calls (no compaction, rewind or model "
           "switch between), 3 are "
           "followed by a drop with the cache read falling to the system prompt (14,527, 26,992 and 34,215 "
           "tokens, after 3.6-5.4 h; 2.0.76, 2.1.86, 2.1.92); the other 28 (2.0.76-2.1.146) grow on. The logs "
           "cannot fix how many results stay: the drops are not what clearing all but any N would give.",
           "Summary size, for comparison with the replay's summariser: from 2.1.111 compactMetadata.postTokens "
           "gives 5,358-21,532 tokens (the conversation after compaction, without system prompt and tools); the "
           "first call after a boundary carries that plus the call's fixed base (its first call's context), "
           "28,142-78,100 tokens (thrashing Haiku sessions aside). The summary text itself is 3,135-21,347 "
           "characters "
           "(median 9,257).",
           "The summary is written by the replay's summariser with its own prompt; Claude Code's nine-section "
           "prompt and its re-reading of up to five recent files after a compaction are not reproduced."),
)

SPECS = (CLAUDE_CODE,)
