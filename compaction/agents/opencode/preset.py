"""OpenCode's compaction (packages/opencode/src/session/compaction.ts and overflow.ts): after each step
it compares the step's tokens with the model's usable window, and past it summarises the whole session
(the next calls read "What did we do so far?", the summary, and "Continue if you have next steps...");
when a turn ends it prunes old tool outputs (prune.py)."""

from compaction.agents.opencode.markers import CONTINUE, SUMMARY_PREFIX
from compaction.agents.opencode.prune import MINIMUM, PROTECT, is_prompt, prune
from compaction.layers.summary import summarize_into
from compaction.measures.windows import log_window
from compaction.model.history import History
from compaction.model.sizes import message_size
from compaction.strategies import actions
from compaction.strategies.agent_sent import recorded_tokens, sent_by_the_agent
from compaction.strategies.base import Step
from compaction.strategies.params import Param
from compaction.strategies.spec import Source, StrategySpec

OUTPUT_TOKEN_MAX = 32_000  # transform.ts: OUTPUT_TOKEN_MAX (OPENCODE_EXPERIMENTAL_OUTPUT_TOKEN_MAX)
COMPACTION_BUFFER = 20_000  # overflow.ts: the reserve below an input limit, at most the output's
_TREE = "https://github.com/anomalyco/opencode/blob/{}/packages/opencode/src/"
OVERFLOW = Source("anomalyco/opencode (formerly sst/opencode): packages/opencode/src/session/overflow.ts at 08f74b9, "
                  "line 6 (COMPACTION_BUFFER = 20_000), lines 8-18 (usable), 20-29 (isOverflow: tokenCount >= "
                  "usable), 31-33 (tokenCount: total, else input + output + cache read + write)",
                  _TREE.format("08f74b9bb5a7dac12b2624a9b1dba4abf7d5b3f2") + "session/overflow.ts#L6-L33")
COMPACTION = Source("anomalyco/opencode: packages/opencode/src/session/compaction.ts at 001aa6c, lines 88-90 "
                    "(PRUNE_MINIMUM = 20_000, PRUNE_PROTECT = 40_000, PRUNE_PROTECTED_TOOLS = [\"skill\"]) and "
                    "146-194 (prune); process: the summary message (mode and agent \"compaction\", summary: true)",
                    _TREE.format("001aa6cc6a2164fe2e836df9f07d11debff1722d") + "session/compaction.ts#L88-L194")
TRANSFORM = Source("anomalyco/opencode: packages/opencode/src/provider/transform.ts (maxOutputTokens = "
                   "min(limit.output, OUTPUT_TOKEN_MAX) || OUTPUT_TOKEN_MAX, 32,000)",
                   _TREE.format("dev") + "provider/transform.ts")
CONFIG = Source("OpenCode config: compaction.auto, compaction.prune, compaction.reserved; a model's limit "
                "(provider.<id>.models.<id>.limit)", "https://opencode.ai/docs/config/")


def max_output(params: dict) -> int:
    """ProviderTransform.maxOutputTokens: the model's output limit, at most 32,000 (32,000 when unknown)."""
    return min(params["output_limit_tokens"], OUTPUT_TOKEN_MAX) or OUTPUT_TOKEN_MAX


def usable(params: dict, window: int) -> int:
    """overflow.ts `usable`: the input limit less the reserve, where the model has one; else the context
    less the output the call may write."""
    context = params["context_limit_tokens"] or window
    if params["input_limit_tokens"]:
        reserved = params["reserved_tokens"] or min(COMPACTION_BUFFER, max_output(params))
        return max(0, params["input_limit_tokens"] - reserved)
    return max(0, context - max_output(params))


def last_step_tokens(history: History) -> int:
    """The tokens of the newest step (tokenCount: its input, cache and output), as the log recorded them
    while the history is what OpenCode sent, else estimated; 0 before the first call."""
    position = next((p for p in range(len(history.messages) - 1, -1, -1)
                     if history.messages[p].get("role") == "assistant"), None)
    if position is None:
        return 0
    origin = history.origins[position]
    usage = history.recorded.usage[origin] if origin is not None and origin < len(history.recorded.usage) else None
    output = usage["output_tokens"] if usage else history.token_model.content_tokens(history.sizes[position])
    prompt = recorded_tokens(history, origin) if origin is not None and position > 0 \
        and sent_by_the_agent(history, position - 1) else None
    if prompt is None:
        prompt = history.derive(history.messages[:position], history.sizes[:position],
                                history.origins[:position]).context_tokens
    return prompt + output


NEVER = 1 << 62  # the threshold of a preset that never compacts (auto off, no usable window)


def threshold_on(params: dict, history: History) -> int:
    """The tokens at which the preset at `params` compacts on the conversation `history` (NEVER: it does not)."""
    if not params["auto"]:
        return NEVER
    window = history.shared_value("opencode_window", lambda: log_window(history.recorded.usage,
                                                                        history.recorded.metadata).tokens)
    limit = usable(params, params["window_tokens"] or window)
    return limit if limit > 0 else NEVER


def _opencode(params: dict):
    def step(history: History, settings, store=None, summarizer=None) -> Step:
        acted: tuple[str, ...] = ()
        events: list = []
        if params["prune"] and history.messages and is_prompt(history.messages[-1]):  # a turn ended
            pruned, found = prune(history, len(history.messages) - 1, params["prune_protect_tokens"], MINIMUM)
            if found:
                history, acted, events = pruned, ("mask",), found
        limit = threshold_on(params, history)
        tokens = last_step_tokens(history) if params["auto"] else 0
        compared = (tokens, limit)  # read nowhere else but in the reason
        if tokens < limit or len(history.messages) < 2:
            return Step(history, acted, tuple(events), compared=compared)
        reason = f"the last step's {tokens:,} tokens >= the usable window {limit:,}"
        result = summarize_into(history, len(history.messages), SUMMARY_PREFIX, reason, "auto_compact", summarizer,
                                store)
        events.extend(result.events)
        if result.history is history:  # the summary failed: OpenCode stops the turn with the error
            return Step(history, (*acted, "auto_compact"), tuple(events), compared=compared)
        sent = result.history
        again = {"role": "user", "content": CONTINUE}
        sent = sent.derive([*sent.messages, again], [*sent.sizes, message_size(again)], [*sent.origins, None])
        return Step(sent, (*acted, "auto_compact"), tuple(events), compared=compared)
    return step


OPENCODE = StrategySpec(
    name="opencode", label="OpenCode", title="OpenCode: overflow compaction and tool-output pruning",
    family="OpenCode",
    description="Once a step's tokens reach the model's usable window (its context less the output it may write, "
                "at most 32,000), summarises the whole session; when a turn ends, clears old tool outputs past the "
                "newest 40,000 tokens if that frees more than 20,000.",
    actions=(actions.AUTO_COMPACT, actions.MASK),
    params=(
        Param("window_tokens", 0, "int", "The model's window (0: the log's model's row of the window table).",
              "tokens", 0, 10_000_000),
        Param("context_limit_tokens", 0, "int", "The model's limit.context as OpenCode uses it (0: the window); "
              "opencode.json can set it per model.", "tokens", 0, 10_000_000),
        Param("input_limit_tokens", 0, "int", "The model's limit.input, for the models that have one (0: none).",
              "tokens", 0, 10_000_000),
        Param("output_limit_tokens", OUTPUT_TOKEN_MAX, "int", "The model's limit.output; the usable window leaves "
              "min(it, 32,000) for the reply.", "tokens", 0, 10_000_000),
        Param("reserved_tokens", 0, "int", "compaction.reserved: the reserve below an input limit (0: not set, "
              "min(20,000, the output limit)).", "tokens", 0, 10_000_000),
        Param("auto", True, "bool", "compaction.auto: summarise at overflow."),
        Param("prune", True, "bool", "compaction.prune: clear old tool outputs when a turn ends."),
        Param("prune_protect_tokens", PROTECT, "int", "The newest tool outputs kept whole (PRUNE_PROTECT, a "
              "constant of OpenCode).", "tokens", 0, 10_000_000),
    ),
    make=_opencode, sources=(OVERFLOW, COMPACTION, TRANSFORM, CONFIG),
    threshold_params=("window_tokens", "context_limit_tokens", "input_limit_tokens", "output_limit_tokens",
                      "reserved_tokens"), threshold=threshold_on,
    reverse_engineered=(
        "The count compared moved: input + cache read + output, strictly over the context less the output room, "
        "in compaction.ts isOverflow (as quoted in anomalyco/opencode issue #4416, Nov 2025); the step's total "
        "(or input + output + cache read + write) at or over the usable window since, in overflow.ts (created in "
        "commit 3aa28600, 2026-06-30, v1.17.12, issue #30649); the reserve below an input limit "
        "(COMPACTION_BUFFER, compaction.reserved) came between the two.",
        "Issue #30649 (open, Aug 2026): providers that report a cache read far over the prompt (DeepSeek, MiMo) "
        "make every step overflow, and OpenCode compacts at a fraction of the window; the replay counts what the "
        "log recorded, so such a log compacts where OpenCode did.",
        "Newer versions mark the compaction part with tail_start_id and an overflow flag and replay the person's "
        "message after the summary; the replay keeps nothing but the summary and the continue message.",
    ),
    notes=("Before each call, when the person's newest message starts a turn, the outputs of completed tools "
           "before the last two turns (back to a summary or an output pruned before) past the newest 40,000 "
           "tokens (characters / 4) become `[Old tool result content cleared]` if they weigh more than 20,000; "
           "the change is permanent.",
           f"When the previous step's tokens (its prompt, recorded while the history is what OpenCode sent, plus "
           f"its output) reach the usable window, everything becomes one user message `{SUMMARY_PREFIX}` with the "
           f"summary, followed by `{CONTINUE}`.",
           "OpenCode writes its summary with its own template (Goal, Instructions, Discoveries, Accomplished, "
           "Relevant files); the replay's summariser uses the lab's prompt."),
)

SPECS = (OPENCODE,)
