"""Roo Code's context management, and Kilo Code's (a fork of it: the same rule), src/core/context-management/
index.ts manageContext: before each request, when the context (the last request's tokens plus the new
message) reaches `autoCondenseContextPercent` of the window, or passes the allowed size (90 % of the window
less the reserved output), the model condenses the whole history into one summary (src/core/condense:
the "fresh start", every older message tagged condenseParent); with condensing off, or when it fails, past
the allowed size a sliding window hides half the messages after the first."""

from compaction.agents.cline.cline_preset import window_of
from compaction.agents.cline.dropping import drop_range
from compaction.agents.cline.markers import ROO_MARKER, ROO_SUMMARY_PREFIX
from compaction.layers.summary import summarize_into
from compaction.model.history import History
from compaction.strategies import actions
from compaction.strategies.base import Step
from compaction.strategies.params import Param
from compaction.strategies.spec import Source, StrategySpec

ROO_COMMIT = "cb83656718"  # RooCodeInc/Roo-Code, 14 Apr 2026
KILO_COMMIT = "bf2f3b64cc"  # Kilo-Org/kilocode
BUFFER = 0.1  # TOKEN_BUFFER_PERCENTAGE
DEFAULT_MAX_TOKENS = 8_192  # ANTHROPIC_DEFAULT_MAX_TOKENS, the reserve of a model without maxTokens
DEFAULT_PERCENT = 100  # ClineProvider.ts: autoCondenseContextPercent ?? 100


def _source(repo: str, commit: str, path: str, what: str, lines: str) -> Source:
    return Source(f"{repo} {commit[:10]}: {path} ({what}, lines {lines})",
                  f"https://github.com/{repo}/blob/{commit}/{path}#L{lines.replace('-', '-L')}")


ROO_SOURCES = (
    _source("RooCodeInc/Roo-Code", ROO_COMMIT, "src/core/context-management/index.ts", "manageContext", "247-376"),
    _source("RooCodeInc/Roo-Code", ROO_COMMIT, "src/core/context-management/index.ts", "truncateConversation",
            "67-135"),
    _source("RooCodeInc/Roo-Code", ROO_COMMIT, "src/core/condense/index.ts", "summarizeConversation, fresh start",
            "256-500"),
    _source("RooCodeInc/Roo-Code", ROO_COMMIT, "src/core/webview/ClineProvider.ts",
            "autoCondenseContext ?? true, autoCondenseContextPercent ?? 100", "2257-2258"),
)
KILO_SOURCES = (
    Source(f"Kilo-Org/kilocode {KILO_COMMIT}: src/core/context-management/index.ts (manageContext, the same "
           "trigger and fallback as Roo Code's)",
           f"https://github.com/Kilo-Org/kilocode/blob/{KILO_COMMIT}/src/core/context-management/index.ts"),
    Source("Kilo-Org/kilocode 0fc86cec22: src/core/condense/index.ts (summarizeConversation, fresh start)",
           "https://github.com/Kilo-Org/kilocode/blob/0fc86cec2299b333cb21da87b649003b19319ecc/src/core/condense/"
           "index.ts"),
)


def allowed(window: int, reserve: int) -> float:
    return window * (1 - BUFFER) - (reserve or DEFAULT_MAX_TOKENS)


def _roo(params: dict):
    def step(history: History, settings, store=None, summarizer=None) -> Step:
        window = window_of(history, params)
        tokens = history.context_tokens
        limit = allowed(window, params["max_tokens"])
        percent = 100 * tokens / window
        messages = history.messages
        if len(messages) < 3:
            return Step(history)
        if params["auto_condense"] and (percent >= params["condense_percent"] or tokens > limit):
            reason = (f"{tokens:,} tokens = {percent:.0f} % of {window:,} >= {params['condense_percent']} % "
                      f"or > the allowed {limit:,.0f}")
            result = summarize_into(history, len(messages), ROO_SUMMARY_PREFIX, reason, "condense", summarizer, store)
            if result.history is not history:
                return Step(result.history, ("condense",), tuple(result.events))
        if tokens <= limit:
            return Step(history)
        count = (len(messages) - 1) // 2
        count -= count % 2
        if count <= 0:
            return Step(history)
        kept, event = drop_range(history, 1, 1 + count, {"role": "user", "content": ROO_MARKER.format(count=count)})
        return Step(kept, ("forget",), (event,))
    return step


def _spec(name: str, label: str, sources: tuple[Source, ...]) -> StrategySpec:
    return StrategySpec(
        name=name, label=label, title=f"{label}: condense at a share of the window", family=label,
        description=f"Once the context reaches autoCondenseContextPercent of the window (default {DEFAULT_PERCENT} %) or "
                    "90 % of it less the output reserve, the whole history becomes one summary; without condensing, "
                    "half the messages after the first are hidden.",
        actions=(actions.CONDENSE, actions.FORGET),
        params=(
            Param("window_tokens", 0, "int", "The model's context window (0: the log's).", "tokens", 0, 10_000_000),
            Param("condense_percent", DEFAULT_PERCENT, "int", "autoCondenseContextPercent: condense at this share of "
                  "the window (5-100).", "% of the window", 5, 100),
            Param("max_tokens", 0, "int", "The output reserve (the model's maxTokens; 0: 8,192, "
                  "ANTHROPIC_DEFAULT_MAX_TOKENS).", "tokens", 0, 1_000_000),
            Param("auto_condense", True, "bool", "autoCondenseContext: condense with the model (off: only the "
                  "sliding window past the allowed size)."),
        ),
        make=_roo, sources=sources,
        reverse_engineered=("No public task of the extension was found to check the rule against: it is read from "
                            "the source only.",),
        notes=("Before each request, on the whole request's estimate (Roo adds the new message's count to the last "
               "request's tokens).",
               f"The summary is a user message `{ROO_SUMMARY_PREFIX}` and the only message sent after it (the fresh "
               "start; Roo adds the task's <command> blocks, folded file outlines and the environment details to it).",
               "The sliding window keeps the first message, hides floor((n - 1) / 2) (even) after it and puts the "
               f"marker `{ROO_MARKER.format(count='N')}` in their place."),
    )


ROO_CODE = _spec("roo-code", "Roo Code", ROO_SOURCES)
KILO_CODE = _spec("kilo-code", "Kilo Code", KILO_SOURCES)
