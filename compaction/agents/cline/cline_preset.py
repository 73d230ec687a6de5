"""Cline's context management (cline/cline 3.x, apps/vscode/src/core/context/context-management/):
before each request, once the previous request's tokens (in + out + cache writes + reads) reach the
window's max allowed size (context-window-utils.ts getContextWindowInfo), it keeps the first user-assistant
pair and drops half of the messages after it (three quarters when half the tokens are still over the
size), with a notice in the first reply (ContextManager.ts). With auto-condense on (a next-gen model), the
model writes a summary instead (summarize_task) and only the first pair and the summary stay."""

from compaction.agents.cline.dropping import drop_range, with_notice
from compaction.agents.cline.file_reads import ENOUGH, without_repeated_reads
from compaction.agents.cline.markers import SUMMARY_PREFIX, TRUNCATION_NOTICE
from compaction.layers.summary import summarize_into
from compaction.measures.windows import log_window
from compaction.model.calibration import recorded_context
from compaction.model.history import History
from compaction.model.mending import mended_join
from compaction.model.sizes import message_size
from compaction.strategies import actions
from compaction.strategies.agent_sent import kept_before, sent_by_the_agent
from compaction.strategies.base import Step
from compaction.strategies.params import Param
from compaction.strategies.spec import Source, StrategySpec

TAG = "v3.89.2"  # the last 3.x release before the SDK rewrite (4.1 dropped these files)
_BASE = f"https://github.com/cline/cline/blob/{TAG}/apps/vscode/src/core"
UTILS = Source(f"cline/cline {TAG}: context-window-utils.ts getContextWindowInfo (lines 10-35)",
               f"{_BASE}/context/context-management/context-window-utils.ts#L10-L35")
MANAGER = Source(f"cline/cline {TAG}: ContextManager.ts getNewContextMessagesAndMetadata (lines 227-294), "
                 "getNextTruncationRange (lines 299-339)",
                 f"{_BASE}/context/context-management/ContextManager.ts#L227-L339")
TASK = Source(f"cline/cline {TAG}: task/index.ts (auto-condense, lines 2513-2569), SummarizeTaskHandler.ts "
              "(keep \"none\", lines 222-241)", f"{_BASE}/task/index.ts#L2513-L2569")
DEFAULT_WINDOW = 128_000  # getContextWindowInfo: a model without a window is taken as 128,000


def max_allowed(window: int) -> int:
    """getContextWindowInfo's maxAllowedSize: 27,000 below a 64,000 window, 30,000 below 128,000, 40,000
    below 200,000, else the larger of window - 40,000 and 80 % of it."""
    reserve = {64_000: 27_000, 128_000: 30_000, 200_000: 40_000}.get(window)
    return window - reserve if reserve is not None else int(max(window - 40_000, window * 0.8))


def previous_request_tokens(history: History) -> int:
    """The newest reply's request, as Cline counts it (tokensIn + tokensOut + cacheWrites + cacheReads):
    recorded where the history up to it is what Cline sent, else the estimate of it and its reply; 0 before
    the first reply."""
    position = next((p for p in range(len(history.messages) - 1, -1, -1)
                     if history.messages[p].get("role") == "assistant"), None)
    if position is None:
        return 0
    origin = history.origins[position]
    usage = history.recorded.usage[origin] if origin is not None and origin < len(history.recorded.usage) else None
    if usage and position > 0 and (sent_by_the_agent(history, position - 1) or as_the_log_sent(history, position)):
        return (recorded_context(usage) or 0) + usage["output_tokens"]
    return history.derive(history.messages[:position + 1], history.sizes[:position + 1],
                          history.origins[:position + 1]).context_tokens


def as_the_log_sent(history: History, position: int) -> bool:
    """Whether the messages up to `position` are the ones the log shows Cline sent for that call (the same
    originals, in order, its kept head first), whatever the replay reshaped in them to keep the tool pairs
    valid or to add Cline's notice: their recorded tokens are then the call's."""
    origins = history.origins[:position + 1]
    last = origins[-1]
    if last is None or None in origins:
        return False
    starts = [b["index"] for b in history.recorded.boundaries if isinstance(b, dict) and isinstance(b.get("index"), int)
              and b["index"] <= last]
    start = max(starts, default=0)
    return origins == [*(kept_before(history, start) if starts else []), *range(start, last + 1)]


def removed(count: int, quarter: bool) -> int:
    """getNextTruncationRange: the messages after the first pair that go, an even number."""
    return (count * 3 // 8) * 2 if quarter else (count // 4) * 2


def paired(history: History) -> History:
    """After summarize_task: the first reply's calls answered in the summary's turn, the last turn's results
    (their calls summarised) as text."""
    messages = list(history.messages)
    if len(messages) < 4 or messages[2].get("role") != "user":
        return history
    messages[2] = mended_join(messages[1], messages[2])
    messages[-1] = mended_join(messages[-2], messages[-1])
    return history.derive(messages, [message_size(m) for m in messages], list(history.origins))


def window_of(history: History, params: dict) -> int:
    return params["window_tokens"] or history.shared_value(
        "cline_window", lambda: log_window(history.recorded.usage, history.recorded.metadata).tokens)


def _cline(params: dict):
    def step(history: History, settings, store=None, summarizer=None) -> Step:
        window = window_of(history, params)
        limit = params["max_allowed_tokens"] or max_allowed(window)
        tokens = previous_request_tokens(history)
        messages = history.messages
        if tokens < limit or len(messages) < 5:
            return Step(history)
        if params["auto_condense"]:
            reason = f"the previous request's {tokens:,} tokens >= {limit:,}: summarize_task"
            result = summarize_into(history, len(messages) - 1, SUMMARY_PREFIX, reason, "summary", summarizer,
                                    store, start=2)
            return Step(paired(result.history), ("summary",), tuple(result.events))
        acted: tuple[str, ...] = ()
        if params["file_read_optimization"]:
            shorter, saved = without_repeated_reads(history, 2)
            if shorter is not history:
                history, messages, acted = shorter, shorter.messages, ("mask",)
                if saved >= ENOUGH:  # enough saved: Cline does not truncate
                    return Step(history, acted)
        quarter = tokens / 2 > limit
        end = 2 + removed(len(messages) - 2, quarter)
        if end - 1 >= 2 and messages[end - 1].get("role") != "assistant":
            end -= 1
        if end <= 2:
            return Step(history, acted)
        kept, event = drop_range(history, 2, end)
        kept = with_notice(kept, 1, TRUNCATION_NOTICE)
        return Step(kept, (*acted, "forget"), (event,))
    return step


CLINE = StrategySpec(
    name="cline", label="Cline", title="Cline: context window truncation", family="Cline",
    description="Once the previous request reaches the window less 27-40K (or 80 % of it), keeps the first "
                "exchange and drops half the messages after it (three quarters when far over); with auto-condense, "
                "a summary replaces them instead.",
    actions=(actions.MASK, actions.FORGET, actions.SUMMARY),
    params=(
        Param("window_tokens", 0, "int", "The model's context window (0: the log's; Cline takes 128,000 for a "
              "model without one).", "tokens", 0, 10_000_000),
        Param("max_allowed_tokens", 0, "int", "The trigger (0: getContextWindowInfo's maxAllowedSize of the window: "
              "less 27,000 at 64K, 30,000 at 128K, 40,000 at 200K, else max(window - 40,000, 80 %)).", "tokens", 0,
              10_000_000),
        Param("auto_condense", False, "bool", "useAutoCondense (a next-gen model): the model summarises "
              "(summarize_task) instead of the truncation."),
        Param("file_read_optimization", True, "bool", "Before truncating, every read of a file but its newest "
              "becomes a notice; 30 % saved or more, no truncation (attemptFileReadOptimizationCore)."),
    ),
    make=_cline, sources=(UTILS, MANAGER, TASK),
    reverse_engineered=(
        "On a real task (claude-opus-4-6, 200K window, truncation) the deleted range grew [2,17], [2,39], [2,57], "
        "[2,79] after requests of 174,769, 165,489, 166,781 and 162,291 tokens, each >= 160,000; a request of "
        "175,816 between them was followed by no truncation but a fall to 129,494 (the file-read step). Replayed, "
        "the preset truncates at calls 17, 32, 38 and 51, the log's four, and only shortens reads at call 26.",
        "Cline 4.1 (June 2026) moved to its SDK (sdk/packages/core/src/extensions/context/compaction.ts); logs of "
        "3.x follow the rule here.",
    ),
    notes=("Before each request, on the previous request's tokens (in + out + cache), as Cline reads them from its "
           "api_req_started row; the replay estimates them where it changed the history.",
           "Truncation keeps messages 0 and 1 and drops the next floor((n - 2) / 4) x 2 (or floor(3 (n - 2) / 8) x 2), "
           "ending on a reply; a kept message answering a dropped call goes with the reply after it. The first "
           f"reply gets the notice `{TRUNCATION_NOTICE[:40]}...`.",
           "Before truncating, Cline turns every read of a file but the newest into a notice and truncates only when "
           "that saved under 30 % of the characters (attemptFileReadOptimizationCore); the replay does so for "
           "read_file results, not for the file text of write and replace results nor files the person mentions."),
)

SPECS = (CLINE,)
