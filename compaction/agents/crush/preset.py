"""Crush's auto-summarise (charmbracelet/crush internal/agent/agent.go): after each step, when the
model's context window less the session's newest prompt and completion tokens leaves 20,000 tokens or
fewer (windows over 200,000) or a fifth of the window or less (the rest), the whole session becomes one
summary; from then on that summary, sent as the person's message, and what follows are the context."""

from compaction.agents.crush.markers import SUMMARY_PREFIX
from compaction.layers.summary import summarize_into
from compaction.measures.windows import log_window
from compaction.model.history import History
from compaction.model.messages import has_tool_result
from compaction.strategies import actions
from compaction.strategies.agent_sent import context_through, newest_call
from compaction.strategies.base import Step
from compaction.strategies.params import Param
from compaction.strategies.spec import Source, StrategySpec

LARGE_WINDOW = 200_000  # largeContextWindowThreshold
LARGE_WINDOW_BUFFER = 20_000  # largeContextWindowBuffer
SMALL_WINDOW_RATIO = 0.2  # smallContextWindowRatio
COMMIT = "37f36e93824e5c4f892e4a817f7f628e2682fe14"  # crush's main, 21 August 2026
BLOB = f"https://github.com/charmbracelet/crush/blob/{COMMIT}"
AGENT = Source("charmbracelet/crush: internal/agent/agent.go lines 56-59 (largeContextWindowThreshold 200_000, "
               "largeContextWindowBuffer 20_000, smallContextWindowRatio 0.2) and 1037-1056 (StopWhen: remaining "
               "= context window - (CompletionTokens + PromptTokens) <= threshold, not disableAutoSummarize)",
               f"{BLOB}/internal/agent/agent.go#L1037-L1056")
AFTER = Source("charmbracelet/crush: internal/agent/agent.go lines 1192-1206 (Summarize, then the turn's prompt queued "
               "again) and 1695-1705 (getSessionMessages: from the summary message on, as the user's)",
               f"{BLOB}/internal/agent/agent.go#L1695-L1705")
COUNTERS = Source("charmbracelet/crush: internal/agent/agent.go lines 1939-1946 (updateSessionTokenCounters: the "
                  "newest call's tokens, not totals)", f"{BLOB}/internal/agent/agent.go#L1939-L1946")
CONFIG = Source("charmbracelet/crush: internal/config/config.go line 321 (Options.DisableAutoSummarize: crush.json "
                "options.disable_auto_summarize)", f"{BLOB}/internal/config/config.go#L321")
TEMPLATE = Source("charmbracelet/crush: internal/agent/templates/summary.md (the summary's sections)",
                  f"{BLOB}/internal/agent/templates/summary.md")

def remaining_limit(window: int) -> int:
    """The tokens left at or under which Crush summarises: 20,000 over a 200,000 window, else a fifth."""
    return LARGE_WINDOW_BUFFER if window > LARGE_WINDOW else int(window * SMALL_WINDOW_RATIO)


def window_of(params: dict, history: History) -> int:
    """The window set, else the log's (its model's row in the window table)."""
    return params["window_tokens"] or history.shared_value(
        "crush_window", lambda: log_window(history.recorded.usage, history.recorded.metadata).tokens)


def step_end(history: History, position: int) -> int:
    """Where the newest step ends: after its reply and the tools' results (Crush writes them in the step,
    before it summarises); what follows is the person's next message, which comes after the summary."""
    end = position + 1
    while end < len(history.messages) and has_tool_result(history.messages[end]):
        end += 1
    return end


def compacts_from(params: dict, history: History) -> int:
    """The fewest tokens at which Crush summarises: the window less the tokens it leaves."""
    window = window_of(params, history)
    return window - (params["remaining_tokens"] or remaining_limit(window))


def _crush(params: dict):
    def step(history: History, settings, store=None, summarizer=None) -> Step:
        if params["disable_auto_summarize"] or not history.messages:
            return Step(history)
        window = window_of(params, history)
        left = params["remaining_tokens"] or remaining_limit(window)
        position = newest_call(history)
        if position is None:  # no call yet: nothing counted
            return Step(history, compared=(0, window - left))
        tokens = context_through(history, position)  # the session row's newest prompt and completion tokens
        compared = (tokens, window - left)  # read nowhere else but in the reason
        if window - tokens > left:
            return Step(history, compared=compared)
        reason = f"{window - tokens:,} tokens left of {window:,} <= {left:,}"
        result = summarize_into(history, step_end(history, position), SUMMARY_PREFIX, reason, "auto_compact",
                                summarizer, store)
        return Step(result.history, ("auto_compact",), tuple(result.events), compared=compared)
    return step


CRUSH = StrategySpec(
    name="crush", label="Crush", title="Crush: auto-summarise", family="Crush",
    description="When 20,000 tokens or fewer of the window are left (a fifth of it under 200,000 tokens), "
                "summarises the whole session; the summary, as the person's message, starts the new context.",
    actions=(actions.SUMMARY,),
    params=(
        Param("window_tokens", 0, "int", "The model's context window (catwalk's context_window, or crush.json's "
              "providers.<id>.models[].context_window; 0: the log's model's).", "tokens", 0, 10_000_000),
        Param("remaining_tokens", 0, "int", "Summarise when this many tokens or fewer are left (0: Crush's rule, "
              "20,000 over a 200,000-token window, else a fifth of it).", "tokens", 0, 10_000_000),
        Param("disable_auto_summarize", False, "bool", "crush.json options.disable_auto_summarize: never "
              "summarise."),
    ),
    make=_crush, sources=(AGENT, AFTER, COUNTERS, CONFIG, TEMPLATE),
    threshold_params=("window_tokens", "remaining_tokens"), threshold=compacts_from,
    reverse_engineered=(
        "Checked on the one public database with a summary of its own (AndresGaibor/cisco-auto, claude-haiku-4.5, "
        "176 calls, summarised after call 110, mid-turn): at the model's 200,000 tokens the preset never fires, "
        "the lab's estimate of that context being 103,702 tokens without Crush's system prompt and tools; at a "
        "128,000-token window it fires at call 109.",
        "Before the fantasy rewrite (internal/llm/agent/agent.go, 2025) the session row kept the newest call's input "
        "+ cache writes as prompt tokens and its output + cache reads as completion tokens; the summary was then "
        "offered by the TUI at 95 % of the window (internal/tui/tui.go line 277 at commit fa7fe6be3's parent).",
    ),
    notes=("After each step Crush compares the window with the session's newest prompt and completion tokens "
           "(the provider's count); the replay compares the estimate of the context up to the newest reply. "
           "A window of 0 (a custom model Crush knows no window of) never summarises.",
           "The summary replaces everything: Crush sends the summary message, as the person's, and what "
           "follows. Summarised in the middle of a turn (the reply asked for a tool), Crush queues the turn's "
           "prompt again, prefixed 'The previous session was interrupted because it got too long'; the replay "
           "goes on with the log's next messages.",
           "Crush's summary follows its own prompt (templates/summary.md: Current State, Files & Changes, "
           "Technical Context, ...); the replay's summariser writes it with the lab's prompt."),
)

SPECS = (CRUSH,)
