"""Claude Code's own compaction, as far as its documentation and public reverse engineering show it:
big tool outputs go to a file with a preview, microcompact clears old results of a few read-only
tools, and auto-compact summarises the whole conversation near the window minus a buffer."""

from compaction.layers.persist import tool_result_budget
from compaction.layers.summary import summarize_into
from compaction.model.history import History
from compaction.model.markers import CLAUDE_CODE_CLEARED, CLAUDE_CODE_SUMMARY_PREFIX
from compaction.model.settings import DEFAULTS
from compaction.strategies import actions
from compaction.strategies.base import Step
from compaction.strategies.clearing import clear_beyond_newest, results_of
from compaction.strategies.edits import tool_names_match
from compaction.strategies.memo import memo_key
from compaction.strategies.params import Param
from compaction.strategies.spec import Source, StrategySpec

MICROCOMPACT_TOOLS = ("Read", "Bash", "Grep", "Glob", "WebFetch")


def auto_compact_threshold(params: dict) -> int:
    """The window minus the room kept for the summary's output, minus the buffer."""
    return params["window_tokens"] - params["output_reserve_tokens"] - params["buffer_tokens"]


def _claude_code(params: dict):
    persisting = DEFAULTS.replace(max_bytes=0, persist_threshold=params["persist_threshold"],
                                  preview_chars=params["preview_chars"])
    key = memo_key("claude-code", params)
    tools = tuple(params["microcompact_tools"])
    compactable = results_of(lambda name: tool_names_match(name, tools), CLAUDE_CODE_CLEARED)
    threshold = auto_compact_threshold(params)

    def step(history: History, settings, store=None, summarizer=None) -> Step:
        acted: list[str] = []
        events: list = []
        persisted = tool_result_budget(history, persisting, store)  # the newest results, each over the threshold
        if persisted.events:
            history = persisted.history
            acted.append("persist")
            events += persisted.events
        if params["microcompact"]:
            history, cleared = clear_beyond_newest(history, key, compactable, params["microcompact_trigger"],
                                                   params["microcompact_keep"], lambda block: CLAUDE_CODE_CLEARED,
                                                   "microcompact")
            if cleared:
                acted.append("microcompact")
                events += cleared
        tokens = history.context_tokens
        if tokens >= threshold and history.messages:
            reason = f"{tokens:,} tokens >= auto-compact threshold {threshold:,}"
            result = summarize_into(history, len(history.messages), CLAUDE_CODE_SUMMARY_PREFIX, reason,
                                    "auto_compact", summarizer, store)
            history = result.history
            acted.append("auto_compact")
            events += result.events
        return Step(history, tuple(acted), tuple(events))
    return step


def _rule(params: dict) -> str | None:
    if auto_compact_threshold(params) < 1:
        return "window_tokens must be larger than output_reserve_tokens + buffer_tokens"
    if params["microcompact_keep"] > params["microcompact_trigger"]:
        return "microcompact_keep must not be larger than microcompact_trigger"
    return None


CLAUDE_CODE = StrategySpec(
    name="claude-code", label="Claude Code", title="Claude Code: persisted outputs, microcompact and auto-compact",
    actions=(actions.PERSIST, actions.MICROCOMPACT, actions.AUTO_COMPACT),
    family="Claude Code",
    description="Saves tool outputs over 30,000 characters to a file with a 2,000-character preview, clears old "
                "results of reading tools, and summarises the whole conversation when it nears the window.",
    params=(
        Param("window_tokens", 200_000, "int", "The model's context window.", "tokens", 1_000, 10_000_000),
        Param("output_reserve_tokens", 20_000, "int", "Room kept for the summary's own output "
              "(the smaller of the model's output limit and 20,000).", "tokens", 0, 1_000_000),
        Param("buffer_tokens", 13_000, "int", "Auto-compact fires this far below the window minus the reserve.",
              "tokens", 0, 1_000_000),
        Param("persist_threshold", 30_000, "int", "A tool output longer than this goes to a file.", "characters",
              1, 1_000_000_000),
        Param("preview_chars", 2_000, "int", "Characters of a saved output kept in the conversation.",
              "characters", 0, 1_000_000),
        Param("microcompact", True, "bool", "Clear old results of the tools below."),
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
             Source("Harness engineering from Claude Code, ch. 9: Auto-compaction (reverse engineering)",
                    "https://zhanghandong.github.io/harness-engineering-from-cc-to-ai-coding/en/part3/ch09.html"),
             Source("Harness engineering from Claude Code, ch. 11: Micro-compaction (reverse engineering)",
                    "https://zhanghandong.github.io/harness-engineering-from-cc-to-ai-coding/en/part3/ch11.html")),
    reverse_engineered=(
        "The auto-compact threshold: window - min(output limit, 20,000) - 13,000 tokens (about 167,000 of a "
        "200,000 window); the buffer has changed between versions.",
        "Persisting outputs over 30,000 characters with a 2,000-character preview.",
        "Microcompact: which tools (Read, Bash, Grep, Glob, WebFetch), when (a count of whole results, 12 here) "
        "and how many stay (5), and the text `[Old tool result content cleared]`; Claude Code also clears by "
        "idle time and through the API's cache edits, under feature flags, which a replay cannot see.",
        "The summary message's opening sentence (as Claude Code logs show it).",
    ),
    notes=("Order before each call: persist the newest outputs, microcompact, then auto-compact when the whole "
           "request (messages, system prompt, tools) reaches the threshold; every change is permanent.",
           "The summary is written by the replay's summariser with its own prompt; Claude Code's nine-section "
           "prompt and its re-reading of up to five recent files after a compaction are not reproduced.",
           "Microcompact is modelled by count: once more than `microcompact_trigger` results of those tools are "
           "whole, all but the newest `microcompact_keep` are cleared."),
)

SPECS = (CLAUDE_CODE,)
