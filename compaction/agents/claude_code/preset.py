"""Claude Code's own compaction, layer by layer as the log's version did (rules.py, with the evidence):
long tool outputs saved to a file (from 2.1.2), old tool results cleared near the threshold (up to
2.1.19), auto-compact once the request reaches the window minus an output reserve minus a 13,000-token
buffer, followed by what Claude Code re-attaches (compacting.py, after_compaction.py). Microcompact by
count and after an idle gap are parameters, off. After the agent's history and the replay's part, the
preset counts each call's tokens from the log's own growth (model/message_tokens.py).
"""

from compaction.agents.claude_code import rules
from compaction.agents.claude_code.auto_off import auto_compact_off
from compaction.agents.claude_code.clearing import clear_near_threshold, dropped_calls, idle_seconds
from compaction.agents.claude_code.compacting import compact, made_tokens, next_index
from compaction.agents.claude_code.markers import CLEARED, SUMMARY_PREFIX
from compaction.agents.claude_code.persisting import persist_outputs
from compaction.agents.claude_code.preset_notes import NOTES, REVERSE_ENGINEERED, SOURCES
from compaction.model.calibration import recorded_context
from compaction.model.history import History
from compaction.model.message_tokens import history_tokens
from compaction.strategies import actions
from compaction.strategies.base import Step
from compaction.strategies.clearing import clear_beyond_newest, results_of
from compaction.strategies.edits import tool_names_match
from compaction.strategies.memo import memo_key
from compaction.strategies.params import Param
from compaction.strategies.spec import StrategySpec

# the names other modules of the project import from here
BUFFER_TOKENS, parse_version = rules.BUFFER_TOKENS, rules.parse_version
output_reserve_for, auto_compact_threshold = rules.output_reserve_for, rules.auto_compact_threshold
__all__ = ["AUTO", "BUFFER_TOKENS", "CLAUDE_CODE", "MICROCOMPACT_TOOLS", "PERSIST_EXEMPT_TOOLS", "SPECS",
           "auto_compact_threshold", "idle_seconds", "output_reserve_for", "parse_version"]

# The results Claude Code's microcompact may clear (COMPACTABLE_TOOLS of its microCompact.ts); the
# 2.1.41 microcompact_boundary records list Edit results among the cleared ones, so not only readers.
MICROCOMPACT_TOOLS = ("Read", "Bash", "Grep", "Glob", "WebSearch", "WebFetch", "Edit", "Write")
# Outputs Claude Code sends whole however long: Read limits itself, a subagent's report (Task, TaskOutput,
# Agent) and the editing tools' confirmations are shown whole (the logs keep Read, Task and TaskOutput
# results of over 30,000 characters and a 2.1.143 Edit result of 119,474 whole)
PERSIST_EXEMPT_TOOLS = ("Read", "Task", "TaskOutput", "Agent", "Edit", "MultiEdit", "Write", "NotebookEdit")
AUTO = "auto"
SWITCHES = (AUTO, "on", "off")
AUTO_COMPACT_SWITCHES = (AUTO, "on")


def _log_version(history: History) -> str | None:
    version = history.recorded.agent_version  # the Claude Code importer's metadata["agent_version"]
    return version if isinstance(version, str) else None


def log_window(history: History) -> int:
    """The model's window as the log shows it: 1,000,000 tokens when it recorded a call over 200,000 (a 1M
    model: the 2.1.2xx logs of Opus 4.8 and 5 reach 679k without compacting), else 200,000."""
    def build() -> int:
        largest = max((recorded_context(u) or 0 for u in history.recorded.usage if u), default=0)
        return rules.LARGE_WINDOW if largest > rules.WINDOW else rules.WINDOW
    return history.shared_value("claude_code_window", build)


def _changed(history: History) -> bool:
    """Whether the history is no longer the log's messages as they were (a layer made or changed one)."""
    originals = history.originals
    return any(origin is None or message is not originals[origin]
               for message, origin in zip(history.messages, history.origins, strict=True))


def _after_first_boundary(history: History) -> int:
    """The original index of the first call after the log's first compaction (past the end: none). There
    the replay still knows the whole history's tokens (the agent's count when it compacted, preTokens)."""
    def build() -> int:
        indexes = [b["index"] for b in history.recorded.boundaries
                   if isinstance(b, dict) and isinstance(b.get("index"), int)]
        first = min(indexes, default=len(history.originals))
        return next((i for i in range(first, len(history.originals))
                     if history.originals[i].get("role") == "assistant"), len(history.originals))
    return history.shared_value("claude_code_after_first_boundary", build)


def _threshold_at(params: dict, history: History, version: str | None) -> int:
    reserve = params["output_reserve_tokens"] or rules.output_reserve_for(version)
    return (params["window_tokens"] or log_window(history)) - reserve - params["buffer_tokens"]


def auto_compact_limit(params: dict, history: History) -> int:
    """The tokens at which the preset at `params` auto-compacts on the conversation `history` (the step's
    own threshold, at the version it runs)."""
    chosen = None if params["version"] == AUTO else params["version"]
    return _threshold_at(params, history, chosen or _log_version(history))


def answered_since_summary(history: History) -> bool:
    """Whether a response follows the session's start or the preset's newest summary. Claude Code counts the
    context from the newest response's usage (plus what was written since); before the first response of
    the session or after a compaction it has no usage, only its estimate of the messages (no system prompt
    or tools): a session whose tools alone pass the threshold compacts after every call, not before."""
    for message in reversed(history.messages):
        if message.get("role") == "assistant":
            return True
        content = message.get("content", "")
        if not isinstance(content, list) and str(content).startswith(SUMMARY_PREFIX):  # a list's text opens "["
            return False
    return False


def _claude_code(params: dict):
    counted, idle, near = (memo_key(name, params) for name in ("claude-code", "claude-code-idle", "claude-code-near"))
    tools = tuple(params["microcompact_tools"])
    compactable = results_of(lambda name: tool_names_match(name, tools), CLEARED)
    placeholder = lambda block: CLEARED  # noqa: E731
    chosen = None if params["version"] == AUTO else params["version"]

    def threshold(history: History, version: str | None) -> int:
        return _threshold_at(params, history, version)

    def clears_near(history: History, parted: bool, tokens, limit: int) -> bool:
        """`on`: the 2.0.76 rule at every call; `auto`: where the log shows the agent cleared, once the
        histories part (before, the log's own counts hold the drop)."""
        switch = params["warning_microcompact"]
        if switch == "on":
            return tokens(history) >= limit - rules.WARNING_BELOW_THRESHOLD
        return switch == AUTO and parted and next_index(history) in dropped_calls(history, rules.WARNING_MIN_SAVING)

    def step(history: History, settings, store=None, summarizer=None) -> Step:
        version = chosen or _log_version(history)
        call = next_index(history)  # the original index of the call about to be made
        acted: list[str] = []
        events: list = []
        limits = rules.persist_limits(version) if params["persist_threshold"] == 0 else {"": params["persist_threshold"]}
        history, persisted = persist_outputs(history, limits, params["preview_chars"],
                                             tuple(params["persist_exempt_tools"]), store)
        if persisted:
            acted.append("persist")
            events += persisted
        # while the history is what the agent sent (before the log's first compaction, nothing changed), its
        # tokens are the log's (and at the first call after it, preTokens). Past that call the histories part,
        # but until the preset changes something its history is the uncompacted one, measured as no
        # compaction is (so a preset that never acts sends exactly what no compaction sends); from its
        # first change on, the log's own growth
        parted = bool(acted) or call > _after_first_boundary(history)
        counting = bool(acted) or (history.known_tokens is None and _changed(history))

        measured: list = [None, 0]  # the history last measured from the log's growth, and its tokens

        def tokens(of: History) -> int:
            if counting and of.known_tokens is None:
                if measured[0] is not of:
                    measured[:] = of, history_tokens(of, made_tokens(of, version, call))
                return measured[1]
            return of.context_tokens

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
        limit = threshold(history, version)
        if params["warning_microcompact"] != "off" and history.messages:
            history, cleared = clear_near_threshold(history, near, compactable,
                                                    clears_near(history, parted or counting, tokens, limit), rules.WARNING_KEEP,
                                                    rules.WARNING_MIN_SAVING, CLEARED, "microcompact")
            if cleared:
                acted.append("microcompact")
                events += cleared
        counting = counting or bool(acted)
        now = tokens(history) if answered_since_summary(history) else history.tokens
        # judged against the log's own threshold, so that a what-if at another window still compacts
        own = log_window(history) - rules.output_reserve_for(version) - rules.BUFFER_TOKENS
        automatic = params["auto_compact"] == "on" or not auto_compact_off(history, own)
        if now >= limit and history.messages and automatic:
            history, compacted = compact(history, version, f"{now:,} tokens >= auto-compact threshold {limit:,}",
                                         summarizer, store)
            acted.append("auto_compact")
            events += compacted
            counting = True
        if counting:
            estimate = tokens(history) if history.known_tokens is None else None
            if estimate is not None and estimate != history.context_tokens:
                history = history.anchored(estimate, history.context_size)
        # the threshold is read nowhere else unless the warning microcompact compares with it at every call
        compared = None if params["warning_microcompact"] == "on" else (now, limit)
        return Step(history, tuple(acted), tuple(events), compared=compared)
    return step


def _rule(params: dict) -> str | None:
    if params["version"] != AUTO and parse_version(params["version"]) is None:
        return f"version must be {AUTO!r} or a Claude Code version such as 2.1.41, got {params['version']!r}"
    if params["auto_compact"] not in AUTO_COMPACT_SWITCHES:
        return f"auto_compact must be one of {', '.join(AUTO_COMPACT_SWITCHES)}, got {params['auto_compact']!r}"
    if params["warning_microcompact"] not in SWITCHES:
        return f"warning_microcompact must be one of {', '.join(SWITCHES)}, got {params['warning_microcompact']!r}"
    reserve = params["output_reserve_tokens"] or rules.RESERVE_UNTIL_2_1_6  # the larger reserve a log may choose
    if (params["window_tokens"] or rules.WINDOW) - reserve - params["buffer_tokens"] < 1:
        return "window_tokens must be larger than output_reserve_tokens + buffer_tokens (32,000 when 0)"
    if params["microcompact_keep"] > params["microcompact_trigger"]:
        return "microcompact_keep must not be larger than microcompact_trigger"
    return None


CLAUDE_CODE = StrategySpec(
    name="claude-code", label="Claude Code", title="Claude Code: persisted outputs, microcompact and auto-compact",
    actions=(actions.PERSIST, actions.MICROCOMPACT, actions.AUTO_COMPACT),
    family="Claude Code",
    description="As the log's Claude Code version did: saves long tool outputs to a file with a 2,000-character "
                "preview (from 2.1.2), clears old tool results where the log shows it did, and summarises "
                "the whole conversation when it nears the window, then carries on with the summary, the files "
                "read again, the plan and the to-do list.",
    params=(
        Param("version", AUTO, "text", "The Claude Code version whose rules apply: `auto` takes the log's "
              "version when the replay knows it, else the newest rule; or a version such as 2.0.76."),
        Param("window_tokens", 0, "int", "The model's context window; 0: as the log shows it (1,000,000 when it "
              "recorded a call over 200,000 tokens, else 200,000).", "tokens", 0, 10_000_000),
        Param("output_reserve_tokens", 0, "int", "Room kept for the summary's own output; 0: as the version did "
              "(32,000 up to 2.1.20, 20,000 from 2.1.21).", "tokens", 0, 1_000_000),
        Param("buffer_tokens", BUFFER_TOKENS, "int", "Auto-compact fires this far below the window minus the "
              "reserve.", "tokens", 0, 1_000_000),
        Param("auto_compact", AUTO, "text", "`auto`: off where the log shows the person had turned it off (its "
              "calls went past the threshold twice with no automatic compaction, and it has none); `on`: always."),
        Param("persist_threshold", 0, "int", "A tool output longer than this goes to a file; 0: as the version "
              "did (none before 2.1.2; then Bash 30,000, Grep 20,000, others 100,000, 50,000 from 2.1.51).",
              "characters", 0, 1_000_000_000),
        Param("preview_chars", 2_000, "int", "Characters of a saved output kept in the conversation.",
              "characters", 0, 1_000_000),
        Param("persist_exempt_tools", PERSIST_EXEMPT_TOOLS, "names", "Tools whose outputs are sent whole however "
              "long (case ignored; read_file counts as Read)."),
        Param("warning_microcompact", AUTO, "text", "Clear the results of the tools below but the newest 3, when "
              "that saves 20,000 tokens: `auto` where the log shows Claude Code did (its context fell 20,000 "
              "tokens with no compaction), `on` once the context is 20,000 tokens from the threshold (2.0.76's "
              "rule), `off`."),
        Param("idle_microcompact", False, "bool", "After an idle gap, clear all but the newest `idle_keep` results "
              "of the tools below (off: most logs show no drop after gaps of over an hour)."),
        Param("idle_minutes", 60, "int", "The gap since the last response after which the idle clearing acts.",
              "minutes", 1, 100_000),
        Param("idle_keep", 5, "int", "Newest results of those tools the idle clearing keeps whole.", "tool results",
              0, 100_000),
        Param("microcompact", False, "bool", "Clear old results of the tools below by count (off: the logs show "
              "no clearing by count)."),
        Param("microcompact_tools", MICROCOMPACT_TOOLS, "names", "Tools whose old results microcompact clears "
              "(case ignored; read_file counts as Read)."),
        Param("microcompact_trigger", 12, "int", "Microcompact by count acts once more results of those tools than "
              "this are whole.", "tool results", 0, 100_000),
        Param("microcompact_keep", 5, "int", "Newest results of those tools it keeps whole.", "tool results", 0,
              100_000),
    ),
    make=_claude_code, rule=_rule,
    threshold_params=("window_tokens", "output_reserve_tokens", "buffer_tokens"), threshold=auto_compact_limit, sources=SOURCES, reverse_engineered=REVERSE_ENGINEERED, notes=NOTES,
)

SPECS = (CLAUDE_CODE,)
