"""Pi's automatic compaction (badlogic/pi-mono, packages/coding-agent/src/core/compaction/compaction.ts):
after a response, once its context tokens pass the model's window less `reserveTokens` (16,384), the
history is summarised but for its newest messages of about `keepRecentTokens` (20,000), counted as
characters / 4, cut where a turn may start (never at a tool result)."""

from compaction.agents.pi.markers import SUMMARY_PREFIX
from compaction.layers.summary import summarize_into
from compaction.measures.windows import log_window
from compaction.model.history import History
from compaction.model.messages import has_tool_result
from compaction.strategies import actions
from compaction.strategies.base import Step
from compaction.strategies.params import Param
from compaction.strategies.spec import Source, StrategySpec

RESERVE_TOKENS, KEEP_RECENT_TOKENS = 16_384, 20_000  # compaction.ts:114-118 DEFAULT_COMPACTION_SETTINGS
CHARS_PER_TOKEN = 4  # compaction.ts estimateTokens: characters / 4
_BLOB = "https://github.com/badlogic/pi-mono/blob/83378aad7e74a0e2bb8f37c007a9685fb4609d8a/packages/coding-agent/src/core"
COMPACTION_TS = Source("badlogic/pi-mono: packages/coding-agent/src/core/compaction/compaction.ts:114-118 "
                       "(DEFAULT_COMPACTION_SETTINGS: reserveTokens 16384, keepRecentTokens 20000), :212-215 "
                       "(shouldCompact: contextTokens > contextWindow - reserveTokens), :376-436 (findCutPoint)",
                       f"{_BLOB}/compaction/compaction.ts#L114-L215")
AGENT_SESSION_TS = Source("badlogic/pi-mono: packages/coding-agent/src/core/agent-session.ts:1742-1818 "
                          "(_checkCompaction: after each response, its usage's total tokens against the threshold)",
                          f"{_BLOB}/agent-session.ts#L1742-L1818")
SETTINGS_TS = Source("badlogic/pi-mono: packages/coding-agent/src/core/settings-manager.ts:624-630 "
                     "(settings.json compaction.reserveTokens, compaction.keepRecentTokens)",
                     f"{_BLOB}/settings-manager.ts#L624-L630")


def window_of(params: dict, history: History) -> int:
    """The model's context window: the parameter's, else the window of the log's model."""
    return params["window_tokens"] or log_window(history.recorded.usage, history.recorded.metadata).tokens


def cut_point(history: History, keep_recent_tokens: int) -> int:
    """findCutPoint: walking back from the newest message, the first message at which the kept ones reach
    `keep_recent_tokens` (characters / 4), moved forward to a message a turn may start at (not a tool
    result); 0 when the whole history is under the budget."""
    kept = 0
    for index in range(len(history.messages) - 1, -1, -1):
        kept += -(-history.sizes[index] // CHARS_PER_TOKEN)
        if kept >= keep_recent_tokens:
            for cut in range(index, len(history.messages)):
                if not has_tool_result(history.messages[cut]):
                    return cut
            return len(history.messages)
    return 0


def compacts_from(params: dict, history: History) -> int:
    """The fewest tokens at which Pi compacts: past the window less reserveTokens."""
    return window_of(params, history) - params["reserve_tokens"] + 1


def _pi(params: dict):
    def step(history: History, settings, store=None, summarizer=None) -> Step:
        window = window_of(params, history)
        tokens = history.context_tokens
        compared = (tokens, compacts_from(params, history))  # read nowhere else but in the reason
        if tokens < compared[1]:
            return Step(history, compared=compared)
        cut = cut_point(history, params["keep_recent_tokens"])
        if cut <= 0:  # everything is recent: nothing to summarise
            return Step(history, compared=compared)
        reason = (f"{tokens:,} tokens > the {window:,}-token window less reserveTokens {params['reserve_tokens']:,}; "
                  f"keeping about {params['keep_recent_tokens']:,} recent tokens")
        result = summarize_into(history, cut, SUMMARY_PREFIX, reason, "auto_compact", summarizer, store)
        return Step(result.history, ("auto_compact",), tuple(result.events), compared=compared)
    return step


PI = StrategySpec(
    name="pi", label="Pi", title="Pi: automatic compaction", family="Pi",
    description="Once the context passes the model's window less reserveTokens (16,384), summarises the history "
                "but for its newest messages of about keepRecentTokens (20,000), cut where a turn may start.",
    actions=(actions.SUMMARY,),
    params=(
        Param("window_tokens", 0, "int", "The model's context window (0: the window of the log's model, as Pi's "
              "model registry gives contextWindow).", "tokens", 0, 10_000_000),
        Param("reserve_tokens", RESERVE_TOKENS, "int", "settings.json compaction.reserveTokens: compaction starts "
              "once the context passes the window less this.", "tokens", 0, 10_000_000),
        Param("keep_recent_tokens", KEEP_RECENT_TOKENS, "int", "settings.json compaction.keepRecentTokens: the "
              "newest messages kept whole, counted as characters / 4.", "tokens", 0, 10_000_000),
    ),
    make=_pi, sources=(COMPACTION_TS, AGENT_SESSION_TS, SETTINGS_TS),
    threshold_params=("window_tokens", "reserve_tokens"), threshold=compacts_from,
    notes=("After each response Pi compares its usage's total tokens (input, output, cache reads and writes) with "
           "the window less reserveTokens; past it, the messages before the cut become one user message "
           f"`{SUMMARY_PREFIX}` with the summary in <summary> tags (messages.ts), and the newest messages of about "
           "keepRecentTokens follow it whole. The replay compares before each call, which is the same point.",
           "Pi also compacts when a call fails for context overflow, and retries it; the replay never overflows "
           "before the threshold. A cut inside a turn makes Pi summarise the turn's start apart (a second, "
           "smaller summary); the replay writes one summary. The summary may take up to 80 % of reserveTokens.",
           "The replay counts the kept messages as the lab measures them (their characters / 4, as Pi estimates "
           "them), and cuts at any message but a tool result, as findValidCutPoints does."),
)

SPECS = (PI,)
