"""GitHub Copilot CLI's automatic compaction, as its documentation states it (the CLI is closed source):
"when the conversation approaches 95 % of the token limit, Copilot compresses the history in the
background" into a checkpoint summary. The replay summarises everything before the person's newest
message once the context reaches that share of the window, and keeps that message whole."""

from compaction.agents.copilot_cli.markers import SUMMARY_PREFIX
from compaction.layers.summary import summarize_into
from compaction.measures.windows import log_window
from compaction.model.history import History
from compaction.model.messages import has_tool_result
from compaction.strategies import actions
from compaction.strategies.base import Step
from compaction.strategies.params import Param
from compaction.strategies.spec import Source, StrategySpec

THRESHOLD = 0.95  # the documented share of the token limit
DOCS = Source("GitHub Docs: About GitHub Copilot CLI, context management (automatic compression near 95 % of "
              "the token limit; /compact, /context)",
              "https://docs.github.com/en/copilot/concepts/agents/about-copilot-cli")
PROVIDER_LIMIT = Source("github/copilot-cli issue #3174: COPILOT_PROVIDER_MAX_PROMPT_TOKENS sets the token "
                        "limit of a model of one's own provider (160,000 when unset)",
                        "https://github.com/github/copilot-cli/issues/3174")


def window_of(params: dict, history: History) -> int:
    """The token limit: the parameter's, else the window of the log's model."""
    return params["window_tokens"] or log_window(history.recorded.usage, history.recorded.metadata).tokens


def threshold_tokens(params: dict, history: History) -> int:
    return max(int(window_of(params, history) * params["threshold_fraction"]), 1)


def newest_prompt(messages: list) -> int:
    """The person's newest message (a tool turn not counting); 0 when there is none."""
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].get("role") == "user" and not has_tool_result(messages[index]):
            return index
    return 0


def _copilot(params: dict):
    def step(history: History, settings, store=None, summarizer=None) -> Step:
        threshold = threshold_tokens(params, history)
        tokens = history.context_tokens
        compared = (tokens, threshold)  # read nowhere else but in the reason
        if tokens < threshold or len(history.messages) < 2:
            return Step(history, compared=compared)
        keep_from = newest_prompt(history.messages) or len(history.messages)
        reason = (f"{tokens:,} tokens >= {params['threshold_fraction']:.0%} of the {window_of(params, history):,}-"
                  f"token limit ({threshold:,})")
        result = summarize_into(history, keep_from, SUMMARY_PREFIX, reason, "auto_compact", summarizer, store)
        return Step(result.history, ("auto_compact",), tuple(result.events), compared=compared)
    return step


COPILOT_CLI = StrategySpec(
    name="copilot-cli", label="Copilot CLI", title="GitHub Copilot CLI: automatic compaction", family="Copilot CLI",
    description="Read from Copilot's documentation (closed source): once the context reaches 95 % of the "
                "model's token limit, summarises the history before the person's newest message into one "
                "checkpoint summary.",
    actions=(actions.SUMMARY,),
    params=(
        Param("window_tokens", 0, "int", "The model's token limit (0: the window of the log's model; a model of "
              "your own provider: COPILOT_PROVIDER_MAX_PROMPT_TOKENS).", "tokens", 0, 10_000_000),
        Param("threshold_fraction", THRESHOLD, "float", "The share of the token limit at which Copilot compacts "
              "(95 % in its documentation; no setting changes it).", "of the window", 0.01, 1.0),
    ),
    make=_copilot, sources=(DOCS, PROVIDER_LIMIT),
    threshold_params=("window_tokens", "threshold_fraction"), threshold=threshold_tokens,
    notes=("Read from documentation, not from source: Copilot CLI is closed source. The 95 % share is what its "
           "documentation states; the limit Copilot gives each model is its own and not published per model. "
           "Compaction events quoted by public tools built on its logs carry preCompactionTokens of 102,597 to "
           "162,784 for Claude and GPT models (713,261 for a 1M-token Opus): at 95 %, limits of about 108,000 to "
           "171,000 tokens.",
           "Before each call, the context is compared with 95 % of the token limit; at it, the messages before "
           f"the person's newest one become one user message `{SUMMARY_PREFIX}` with the summary. Copilot "
           "compresses in the background while the session goes on and swaps the checkpoint in afterwards; the "
           "replay summarises before the call.",
           "What Copilot keeps beside its checkpoint is not documented; the replay keeps the person's newest "
           "message. /compact (trigger manual) does the same at any size."),
)

SPECS = (COPILOT_CLI,)
