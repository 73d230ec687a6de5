"""LangChain's agent middleware (langchain v1): SummarizationMiddleware, which replaces all but the
last messages with a summary for good, and ClearToolUsesEdit (ContextEditingMiddleware), which
clears old tool results in each request only."""

from compaction.layers.reactive import reactive_cut
from compaction.layers.summary import summarize_into
from compaction.model.events import AppliedEdit
from compaction.model.history import History
from compaction.model.markers import LANGCHAIN_CLEARED, LANGCHAIN_SUMMARY_PREFIX
from compaction.model.messages import has_tool_result
from compaction.strategies import actions
from compaction.strategies.base import Step
from compaction.strategies.clearing import clear_old_results
from compaction.strategies.memo import memo_key
from compaction.strategies.params import Param
from compaction.strategies.spec import Source, StrategySpec

SUMMARIZATION = Source("LangChain reference: SummarizationMiddleware",
                       "https://reference.langchain.com/python/langchain/agents/middleware/summarization/"
                       "SummarizationMiddleware")
SUMMARIZATION_CODE = Source("langchain-ai/langchain: libs/langchain_v1/langchain/agents/middleware/summarization.py",
                            "https://github.com/langchain-ai/langchain/blob/master/libs/langchain_v1/langchain/"
                            "agents/middleware/summarization.py")
CONTEXT_EDITING = Source("LangChain reference: ClearToolUsesEdit",
                         "https://reference.langchain.com/python/langchain/agents/middleware/context_editing/"
                         "ClearToolUsesEdit")
CONTEXT_EDITING_CODE = Source("langchain-ai/langchain: libs/langchain_v1/langchain/agents/middleware/"
                              "context_editing.py",
                              "https://github.com/langchain-ai/langchain/blob/master/libs/langchain_v1/langchain/"
                              "agents/middleware/context_editing.py")
TOO_LONG = "Previous conversation was too long to summarize."
MAX_TOKENS = 10_000_000


class _Fixed:
    """LangChain's own text when nothing is left to summarise after trimming."""

    name = "langchain"

    def summarize(self, messages, focus=None) -> str:
        return TOO_LONG


def trimmed_for_summary(history: History, end: int, limit: int) -> list:
    """What the summariser reads of messages[:end]: the newest whole messages within `limit` tokens,
    starting at a message of the person (trim_messages with strategy "last", start_on "human")."""
    if not limit:
        return history.messages[:end]
    tokens = history.token_model.content_tokens
    start, used = end, 0
    while start > 0 and used + tokens(history.sizes[start - 1]) <= limit:
        start -= 1
        used += tokens(history.sizes[start])
    while start < end and (history.messages[start].get("role") != "user" or has_tool_result(history.messages[start])):
        start += 1
    return history.messages[start:end]


def _reasons(history: History, params: dict) -> list[str]:
    tokens = history.context_tokens
    reasons = []
    if params["trigger_tokens"] and tokens >= params["trigger_tokens"]:
        reasons.append(f"{tokens:,} tokens >= {params['trigger_tokens']:,}")
    if params["trigger_messages"] and len(history) >= params["trigger_messages"]:
        reasons.append(f"{len(history):,} messages >= {params['trigger_messages']:,}")
    if params["trigger_fraction"]:
        threshold = max(int(params["window_tokens"] * params["trigger_fraction"]), 1)
        if tokens >= threshold:
            reasons.append(f"{tokens:,} tokens >= {params['trigger_fraction']:g} of the window ({threshold:,})")
    return reasons


def _summarization(params: dict):
    def step(history: History, settings, store=None, summarizer=None) -> Step:
        reasons = _reasons(history, params)
        if not reasons or len(history) <= params["keep_messages"]:
            return Step(history)
        cut = reactive_cut(history.messages, params["keep_messages"])  # moved back to the calls it answers
        if cut <= 0:
            return Step(history)
        read = trimmed_for_summary(history, cut, params["trim_tokens_to_summarize"])
        reason = "; ".join(reasons) + f"; keeping the last {len(history) - cut} messages"
        result = summarize_into(history, cut, LANGCHAIN_SUMMARY_PREFIX, reason, "summary",
                                summarizer if read else _Fixed(), store, summary_input=read)
        return Step(result.history, ("summary",), tuple(result.events))
    return step


def _clear_tool_uses(params: dict):
    key = memo_key("langchain-clear-tool-uses", params)
    keep_tools = frozenset(params["exclude_tools"])

    def step(history: History, settings, store=None, summarizer=None) -> Step:
        if history.context_tokens <= params["trigger"]:
            return Step(history)
        tokens = history.token_model.content_tokens
        enough = (lambda chars: tokens(chars) >= params["clear_at_least"]) if params["clear_at_least"] else None
        kept = keep_tools | frozenset(settings.keep_tools)  # the settings' kept tools too (model/keep.py)
        done = clear_old_results(history, key, params["keep"], kept, params["clear_tool_inputs"],
                                 params["placeholder"], enough)
        if not done.cleared_uses:
            return Step(history)
        edit = AppliedEdit("ClearToolUsesEdit", cleared_tool_uses=done.cleared_uses,
                           cleared_input_tokens=tokens(done.cleared_chars), layer="clear_tool_uses")
        sent = history.derive(done.messages, done.sizes, history.origins)
        return Step(sent, ("clear_tool_uses",), (edit,), carry=history)
    return step


def _summarization_rule(params: dict) -> str | None:
    if not (params["trigger_tokens"] or params["trigger_messages"] or params["trigger_fraction"]):
        return "set at least one trigger (tokens, messages or fraction); with none it never summarises"
    return None


LANGCHAIN_SUMMARIZATION = StrategySpec(
    name="langchain-summarization", label="LangChain summary", family="LangChain",
    actions=(actions.SUMMARY,),
    title="LangChain SummarizationMiddleware",
    description="When a trigger is reached, replaces everything but the last 20 messages with one summary, never "
                "separating a tool call from its result.",
    params=(
        Param("trigger_tokens", 4_000, "int", "Summarise when the request reaches this many tokens (0: off).",
              "tokens", 0, MAX_TOKENS),
        Param("trigger_messages", 0, "int", "Summarise when the history reaches this many messages (0: off).",
              "messages", 0, 10_000_000),
        Param("trigger_fraction", 0.0, "float", "Summarise when the request reaches this share of the window "
              "(0: off).", "of the window", 0.0, 1.0),
        Param("window_tokens", 200_000, "int", "The model's input limit, for the fraction trigger.", "tokens",
              1_000, MAX_TOKENS),
        Param("keep_messages", 20, "int", "Newest messages kept after a summary.", "messages", 0, 100_000),
        Param("trim_tokens_to_summarize", 4_000, "int", "The summariser reads only the newest this-many tokens of "
              "what it replaces, from a message of the person on (0: all of it).", "tokens", 0, MAX_TOKENS),
    ),
    make=_summarization, rule=_summarization_rule, sources=(SUMMARIZATION, SUMMARIZATION_CODE),
    notes=("The middleware's own default has no trigger (it never summarises); these defaults are its "
           "documentation's example, `trigger=(\"tokens\", 4000), keep=(\"messages\", 20)`. Triggers combine with "
           "OR, each a `>=` comparison; tokens are the whole request through the conversation's token model.",
           "The cut is moved back to the assistant message whose calls the kept part starts answering, as "
           "`_find_safe_cutoff_point` does; the summary is a user message starting "
           f"`{LANGCHAIN_SUMMARY_PREFIX}` and it is permanent (the middleware rewrites the agent's state).",
           "The summariser reads what `trim_messages(strategy=\"last\", start_on=\"human\")` keeps (whole messages "
           f"here). When no message of the person is in that window, LangChain writes `{TOO_LONG}` instead of a "
           "summary, and so does the replay: on tool-heavy sessions this is common.",
           "A summary already in the history is summarised again with the rest, as LangChain does."),
)

LANGCHAIN_CLEAR_TOOL_USES = StrategySpec(
    name="langchain-clear-tool-uses", label="LangChain clear", family="LangChain",
    actions=(actions.CLEAR_TOOL_USES,),
    title="LangChain ContextEditingMiddleware with ClearToolUsesEdit",
    description="Once the conversation passes 100,000 tokens, each request has all but the newest three tool "
                "results replaced by `[cleared]`; the agent's own history stays whole.",
    params=(
        Param("trigger", 100_000, "int", "Clearing happens once the request is over this many tokens.", "tokens", 1,
              MAX_TOKENS),
        Param("keep", 3, "int", "Newest tool results kept whole.", "tool results", 0, 100_000),
        Param("clear_at_least", 0, "int", "Stop clearing once this much is reclaimed (0: clear all but `keep`).",
              "tokens", 0, MAX_TOKENS),
        Param("clear_tool_inputs", False, "bool", "Also empty the cleared calls' arguments."),
        Param("exclude_tools", (), "names", "Tools whose results are never cleared (comma-separated names)."),
        Param("placeholder", LANGCHAIN_CLEARED, "text", "The text put in place of a cleared result."),
    ),
    make=_clear_tool_uses, sources=(CONTEXT_EDITING, CONTEXT_EDITING_CODE),
    notes=("The middleware edits a deep copy of the messages for each model call, so the replay sends the "
           "cleared copy and keeps the whole history for the next call.",
           "The trigger is `>` the token count; `keep` counts tool results (one per call, parallel calls "
           "included), excluded tools among them; with `clear_at_least`, clearing goes oldest first and stops "
           "as soon as that many tokens are reclaimed."),
)

SPECS = (LANGCHAIN_SUMMARIZATION, LANGCHAIN_CLEAR_TOOL_USES)
