"""OpenAI Codex CLI's auto-compaction: once the context reaches the auto-compact limit, the whole history
is replaced by the person's recent messages and a summary (codex-rs/core/src/compact.rs)."""

from compaction.agents.codex.log.compaction import USER_MESSAGE_BUDGET, approx_tokens, cut_to_tokens
from compaction.agents.codex.log.items import INJECTED
from compaction.agents.codex.markers import SUMMARY_PREFIX
from compaction.layers.summary import summarize_into
from compaction.model.history import History
from compaction.model.markers import is_summary
from compaction.model.messages import blocks
from compaction.model.sizes import message_size
from compaction.strategies.base import Step
from compaction.strategies.params import Param
from compaction.strategies.spec import Source, StrategySpec

CONTEXT_WINDOW = 272_000  # GPT-5 family in Codex's model info; rollouts report 95 % of it (258,400)
COMPACT_RS = Source("openai/codex: codex-rs/core/src/compact.rs (summary prompt, kept user messages)",
                    "https://github.com/openai/codex/blob/main/codex-rs/core/src/compact.rs")
MODELS_RS = Source("openai/codex: codex-rs/protocol/src/openai_models.rs (auto_compact_token_limit: 90 % of the window)",
                   "https://github.com/openai/codex/blob/main/codex-rs/protocol/src/openai_models.rs")
CONFIG_DOC = Source("openai/codex: docs/config.md (model_context_window, model_auto_compact_token_limit)",
                    "https://github.com/openai/codex/blob/main/docs/config.md")


def auto_compact_limit(params: dict) -> int:
    """min(model_auto_compact_token_limit, 90 % of the context window), as ModelInfo computes it."""
    ninety = params["window_tokens"] * 9 // 10
    configured = params["auto_compact_token_limit"]
    return min(configured, ninety) if configured else ninety


def user_texts(history: History) -> tuple[list[str], list[str]]:
    """(the context Codex writes itself, the person's messages), in order: the texts of user messages,
    without tool results and earlier summaries (compact.rs: collect_user_messages)."""
    context, texts = [], []
    for message in history.messages:
        if message.get("role") != "user" or is_summary(message):
            continue
        content = message.get("content")
        found = [content] if isinstance(content, str) else \
            [b["text"] for b in blocks(message) if b.get("type") == "text" and isinstance(b.get("text"), str)]
        for text in found:
            if text.lstrip().startswith(tuple(opening for opening, _ in INJECTED)):
                if text not in context:
                    context.append(text)
            elif text.strip() and not text.startswith(SUMMARY_PREFIX):
                texts.append(text)
    return context, texts


def newest_within(texts: list[str], budget: int) -> list[str]:
    """The newest texts within `budget` tokens (bytes / 4), the oldest of them cut in the middle to fit."""
    kept, remaining = [], budget
    for text in reversed(texts):
        if remaining <= 0:
            break
        tokens = approx_tokens(text)
        kept.append(text if tokens <= remaining else cut_to_tokens(text, remaining))
        remaining -= tokens
    return kept[::-1]


def _codex(params: dict):
    threshold = auto_compact_limit(params)

    def step(history: History, settings, store=None, summarizer=None) -> Step:
        tokens = history.context_tokens
        if tokens < threshold or not history.messages:
            return Step(history)
        context, texts = user_texts(history)
        kept = context + newest_within(texts, params["user_message_budget_tokens"])
        reason = f"{tokens:,} tokens >= auto-compact limit {threshold:,}; keeping {len(kept)} user message(s)"
        result = summarize_into(history, len(history.messages), SUMMARY_PREFIX, reason, "auto_compact",
                                summarizer, store)
        sent = result.history
        if kept and sent is not history:  # the summary was written: the kept messages go before it
            message = {"role": "user", "content": [{"type": "text", "text": text} for text in kept]}
            sent = sent.derive([message, *sent.messages], [message_size(message), *sent.sizes], [None, *sent.origins])
        return Step(sent, ("auto_compact",), tuple(result.events))
    return step


CODEX = StrategySpec(
    name="codex", label="Codex CLI", title="OpenAI Codex CLI: auto-compaction", family="Codex CLI",
    description="At 90 % of the model's window (244,800 of 272,000 tokens), replaces the whole history with the "
                "person's newest messages (up to 20,000 tokens) and a summary.",
    params=(
        Param("window_tokens", CONTEXT_WINDOW, "int", "The model's context window (Codex's model info).", "tokens",
              1_000, 10_000_000),
        Param("auto_compact_token_limit", 0, "int", "config.toml's model_auto_compact_token_limit (0: not set); "
              "the limit is the smaller of it and 90 % of the window.", "tokens", 0, 10_000_000),
        Param("user_message_budget_tokens", USER_MESSAGE_BUDGET, "int", "The person's newest messages kept after a "
              "compaction, counted as bytes / 4.", "tokens", 0, 10_000_000),
    ),
    make=_codex, sources=(COMPACT_RS, MODELS_RS, CONFIG_DOC),
    reverse_engineered=(
        "The 272,000-token window of the GPT-5 models is Codex's model metadata, not documented per model; rollouts "
        "of cli 0.34-0.36 report it, those of 0.55-0.118 report 95 % of it (258,400, effective_context_window_percent).",
        "Real rollouts (cli 0.77-0.118) compacted with 80,734, 158,120, 213,218, 232,571 and 253,066 tokens in the "
        "call before: only the last reaches 244,800, so the others were /compact or a rule the file does not show "
        "(the trigger is not recorded).",
    ),
    notes=("Before each call, when the whole request reaches the limit, the history becomes: the context Codex "
           "writes itself (environment context, AGENTS.md), the person's newest messages within the budget, and "
           f"a user message `{SUMMARY_PREFIX[:40]}...` with the summary. Tool calls, results and answers are "
           "dropped; the change is permanent.",
           "Codex compares the last response's total tokens after each turn and before the next; the replay "
           "compares the request it is about to send, through the conversation's token model.",
           "Newer Codex versions ask the server to compact (/responses/compact): the summary comes back encrypted "
           "and the kept items may include the assistant's final answers (seen in cli 0.117+ rollouts); the "
           "replay models the local compact.rs, whose summary is written by the replay's summariser."),
)

SPECS = (CODEX,)
