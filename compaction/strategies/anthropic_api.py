"""The Messages API's own context management: tool-result clearing and thinking-block clearing
(context editing, applied by the API to each request while the client keeps its full history) and
server-side compaction (a summary block that permanently replaces everything before it)."""

from compaction.layers.summary import summarize_into
from compaction.model.events import AppliedEdit
from compaction.model.history import History
from compaction.model.markers import API_CLEARED, COMPACTION_BLOCK_PREFIX
from compaction.strategies import actions
from compaction.strategies.base import Step
from compaction.strategies.clearing import clear_old_results
from compaction.strategies.memo import memo_key
from compaction.strategies.params import Param
from compaction.strategies.spec import Source, StrategySpec
from compaction.strategies.thinking import clear_old_thinking

CONTEXT_EDITING = Source("Anthropic, Context editing (Claude Developer Platform docs)",
                         "https://platform.claude.com/docs/en/build-with-claude/context-editing")
COMPACTION = Source("Anthropic, Compaction (Claude Developer Platform docs)",
                    "https://platform.claude.com/docs/en/build-with-claude/compaction")
MAX_TOKENS = 10_000_000


def _clear_tool_uses(params: dict):
    key = memo_key("anthropic-clear-tool-uses", params)
    keep_tools = frozenset(params["exclude_tools"])

    def step(history: History, settings, store=None, summarizer=None) -> Step:
        if history.context_tokens <= params["trigger"]:
            return Step(history)
        kept = keep_tools | frozenset(settings.keep_tools)  # the settings' kept tools too (model/keep.py)
        done = clear_old_results(history, key, params["keep"], kept, params["clear_tool_inputs"], API_CLEARED)
        tokens = history.token_model.content_tokens(done.cleared_chars)
        if not done.cleared_uses or tokens < params["clear_at_least"]:
            return Step(history)  # the API applies the edit only when it clears at least that much
        edit = AppliedEdit("clear_tool_uses_20250919", cleared_tool_uses=done.cleared_uses,
                           cleared_input_tokens=tokens, layer="clear_tool_uses")
        sent = history.derive(done.messages, done.sizes, history.origins)
        return Step(sent, ("clear_tool_uses",), (edit,), carry=history)
    return step


def _clear_thinking(params: dict):
    key = memo_key("anthropic-clear-thinking", params)

    def step(history: History, settings, store=None, summarizer=None) -> Step:
        if params["keep_all"]:
            return Step(history)
        done = clear_old_thinking(history, key, params["keep"])
        if not done.cleared_turns:
            return Step(history)
        edit = AppliedEdit("clear_thinking_20251015", cleared_thinking_turns=done.cleared_turns,
                           cleared_input_tokens=history.token_model.content_tokens(done.cleared_chars),
                           layer="clear_thinking")
        sent = history.derive(done.messages, done.sizes, history.origins)
        return Step(sent, ("clear_thinking",), (edit,), carry=history)
    return step


def _compact(params: dict):
    def step(history: History, settings, store=None, summarizer=None) -> Step:
        tokens = history.context_tokens
        if tokens <= params["trigger"] or not history.messages:
            return Step(history)
        reason = f"{tokens:,} input tokens > trigger {params['trigger']:,}"
        result = summarize_into(history, len(history.messages), COMPACTION_BLOCK_PREFIX, reason, "compact",
                                summarizer, store, focus=params["instructions"] or None)
        return Step(result.history, ("compact",), tuple(result.events))
    return step


CLEAR_TOOL_USES = StrategySpec(
    name="anthropic-clear-tool-uses", label="API clear_tool_uses", family="Anthropic API",
    actions=(actions.CLEAR_TOOL_USES,),
    title="Anthropic API context editing: clear_tool_uses_20250919",
    description="Once a request passes the trigger, the API replaces all but the newest few tool results with a "
                "placeholder before the model reads it; your own copy of the conversation stays whole.",
    params=(
        Param("trigger", 100_000, "int", "Clearing starts once the request's input exceeds this.", "tokens", 1,
              MAX_TOKENS),
        Param("keep", 3, "int", "Newest tool uses (call and result) kept whole.", "tool uses", 0, 100_000),
        Param("clear_at_least", 0, "int", "Apply the edit only if it clears at least this much (0: any amount).",
              "tokens", 0, MAX_TOKENS),
        Param("exclude_tools", (), "names", "Tools whose results are never cleared (comma-separated names)."),
        Param("clear_tool_inputs", False, "bool", "Also empty the cleared calls' inputs."),
    ),
    make=_clear_tool_uses, sources=(CONTEXT_EDITING,),
    notes=("Each request is edited afresh from the full history, so the replay sends the cleared copy and "
           "keeps the whole one for the next call; every call's record carries `cleared_tool_uses` and "
           "`cleared_input_tokens` for that request, as `context_management.applied_edits` does.",
           "The input compared with `trigger` is the whole request: messages, system prompt and tools, "
           "through the conversation's token model.",
           f"The API's placeholder text is not documented; the replay writes `{API_CLEARED}`.",
           "`keep` counts every tool use, excluded tools included; a cleared call's input becomes `{}`."),
)

CLEAR_THINKING = StrategySpec(
    name="anthropic-clear-thinking", label="API clear_thinking", family="Anthropic API",
    actions=(actions.CLEAR_THINKING,),
    title="Anthropic API context editing: clear_thinking_20251015",
    description="Removes the model's thinking blocks from all but the newest few assistant turns of each request; "
                "your own copy keeps them.",
    params=(
        Param("keep", 1, "int", "Newest assistant turns whose thinking blocks are kept.", "thinking turns", 0,
              100_000),
        Param("keep_all", False, "bool", "Keep every thinking block (`keep: \"all\"`, best for the prompt cache)."),
    ),
    make=_clear_thinking, sources=(CONTEXT_EDITING,),
    notes=("A turn is every assistant message from one person's message to the next (a tool-use loop is one "
           "turn); only turns that hold thinking or redacted_thinking blocks count.",
           "Sessions without thinking blocks (most logs) are sent unchanged."),
)

COMPACT = StrategySpec(
    name="anthropic-compact", label="API compaction", family="Anthropic API",
    actions=(actions.COMPACT,),
    title="Anthropic API server-side compaction: compact_20260112",
    description="Once a request passes the trigger, the API summarises the whole conversation into a compaction "
                "block, and every later request starts from that block.",
    params=(
        Param("trigger", 150_000, "int", "Compaction happens once the request's input exceeds this.", "tokens",
              50_000, MAX_TOKENS),
        Param("instructions", "", "text", "Your own summarisation instructions, replacing the API's prompt "
              "(passed to the summariser as its focus)."),
    ),
    make=_compact, sources=(COMPACTION,),
    notes=("The compaction block is shown as a user message starting with "
           f"`{COMPACTION_BLOCK_PREFIX}`; the API drops everything before it from later requests, so the "
           "replay keeps only it.",
           "`pause_after_compaction` changes when the response stops, not what is sent, so it is not a "
           "parameter here.",
           "The summary is written by the replay's summariser: the offline one cannot follow `instructions` "
           "and only notes them as the requested focus."),
)

SPECS = (CLEAR_TOOL_USES, CLEAR_THINKING, COMPACT)
