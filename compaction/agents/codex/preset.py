"""OpenAI Codex CLI's auto-compaction: once Codex's own count of the context (usage_rule.py) reaches the
auto-compact limit, the whole history is replaced by the person's recent messages and a summary
(codex-rs/core/src/compact.rs), or, where the log compacted there, by what the log shows it kept."""

from compaction.agents.codex.log.compaction import USER_MESSAGE_BUDGET, approx_tokens, cut_to_tokens
from compaction.agents.codex.log.items import INJECTED
from compaction.agents.codex.markers import SUMMARY_PREFIX
from compaction.agents.codex.usage_rule import codex_count
from compaction.layers.summary import summarize_into
from compaction.measures.windows import NAMED_KEY
from compaction.model.events import SummaryEvent
from compaction.model.history import History
from compaction.model.markers import is_summary
from compaction.model.messages import blocks
from compaction.model.sizes import message_size
from compaction.strategies.agent_sent import recorded_tokens, sent_by_the_agent, upcoming_call
from compaction.strategies.base import Step
from compaction.strategies.log_cut import LOG_SUMMARIZER
from compaction.strategies.params import Param
from compaction.strategies.spec import Source, StrategySpec

CONTEXT_WINDOW = 272_000  # GPT-5 family in Codex's model info; rollouts report 95 % of it (258,400)
HISTORY_RS = Source("openai/codex: codex-rs/core/src/context_manager/history.rs (get_total_token_usage: what "
                    "Codex compares with its limit)",
                    "https://github.com/openai/codex/blob/main/codex-rs/core/src/context_manager/history.rs")
COMPACT_RS = Source("openai/codex: codex-rs/core/src/compact.rs (summary prompt, kept user messages)",
                    "https://github.com/openai/codex/blob/main/codex-rs/core/src/compact.rs")
MODELS_RS = Source("openai/codex: codex-rs/protocol/src/openai_models.rs (auto_compact_token_limit: 90 % of the window)",
                   "https://github.com/openai/codex/blob/main/codex-rs/protocol/src/openai_models.rs")
CONFIG_DOC = Source("openai/codex: docs/config.md (model_context_window, model_auto_compact_token_limit)",
                    "https://github.com/openai/codex/blob/main/docs/config.md")


def auto_compact_limit(params: dict, window: int | None = None) -> int:
    """min(model_auto_compact_token_limit, 90 % of the context window), as ModelInfo computes it. The window:
    the parameter's, else `window` (the log's), else the GPT-5 family's."""
    ninety = (params["window_tokens"] or window or CONTEXT_WINDOW) * 9 // 10
    configured = params["auto_compact_token_limit"]
    return min(configured, ninety) if configured else ninety


def limit_on(params: dict, history: History) -> int:
    """The limit the step compares with on the conversation `history`."""
    return auto_compact_limit(params, log_window_tokens(history))


def log_window_tokens(history: History) -> int:
    """The window the log names (a rollout's model_context_window), else Codex's own for a model its model
    info does not list: 272,000 (rollouts of kimi-k2.5 and mistral report 258,400, 95 % of it)."""
    named = history.recorded.metadata.get(NAMED_KEY)
    return named if isinstance(named, int) and not isinstance(named, bool) and named > 0 else CONTEXT_WINDOW


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


def log_new_start(history: History) -> tuple[int, int] | None:
    """(its index, the call's index) when the log compacted right before the call about to be sent: between
    the newest response of `history` and that call lies the new start Codex sent instead of the history."""
    call = upcoming_call(history)
    if call is None:
        return None
    newest = next(origin for origin in reversed(history.origins) if origin is not None)
    summaries = history.recorded.agent_summaries
    for boundary in history.recorded.boundaries:
        index = boundary.get("index") if isinstance(boundary, dict) else None
        if isinstance(index, int) and boundary.get("new_start") and index in summaries and newest < index <= call:
            return index, call
    return None


def as_the_agent_sent(history: History) -> History:
    """`history` with the tokens the log recorded for the call, when it is what the agent sent then (after the
    log's own compaction, which this preset carried on with, the replay no longer knows it)."""
    if history.known_tokens is not None or not history.messages or history.origins[-1] is None:
        return history
    newest, call = history.origins[-1], upcoming_call(history)
    compacted = any(isinstance(b, dict) and isinstance(b.get("index"), int) and newest < b["index"] <= call
                    for b in history.recorded.boundaries)  # the agent sent its new start instead
    tokens = recorded_tokens(history, call) if call is not None else None
    if not compacted and tokens is not None and sent_by_the_agent(history, len(history.messages) - 1):
        return history.knowing(tokens)
    return history


def _with_log_start(history: History, start: int, call: int) -> History:
    """The log's own new start (the server's replacement history, or compact.rs's summary and messages) in
    place of the history, with the tokens the log recorded for the call when it did."""
    message = history.originals[start]
    sent = history.derive([message], [history.prepared.sizes[start]], [start])
    tokens = recorded_tokens(history, call)
    return sent.knowing(tokens) if tokens is not None else sent


def _codex(params: dict):
    def step(history: History, settings, store=None, summarizer=None) -> Step:
        threshold = auto_compact_limit(params, log_window_tokens(history))
        counted = codex_count(history)
        compared = (counted.tokens, threshold)  # the limit is read nowhere else
        if counted.tokens < threshold or not history.messages:
            return Step(as_the_agent_sent(history), compared=compared)
        reason = f"{counted.words()} >= auto-compact limit {threshold:,}"
        own = log_new_start(history)
        if own is not None:  # the log compacted here: what it carried on with (a remote compaction's included)
            summary = history.originals[own[0]].get("content")
            event = SummaryEvent(True, reason + "; the log's own compaction, what it kept", LOG_SUMMARIZER,
                                 summary if isinstance(summary, str) else str(summary), None, None,
                                 tuple(o for o in history.origins if o is not None), "auto_compact")
            return Step(_with_log_start(history, *own), ("auto_compact",), (event,), compared=compared)
        context, texts = user_texts(history)
        kept = context + newest_within(texts, params["user_message_budget_tokens"])
        reason += f"; keeping {len(kept)} user message(s)"
        result = summarize_into(history, len(history.messages), SUMMARY_PREFIX, reason, "auto_compact",
                                summarizer, store)
        sent = result.history
        if kept and sent is not history:  # the summary was written: the kept messages go before it
            message = {"role": "user", "content": [{"type": "text", "text": text} for text in kept]}
            sent = sent.derive([message, *sent.messages], [message_size(message), *sent.sizes], [None, *sent.origins])
        return Step(sent, ("auto_compact",), tuple(result.events), compared=compared)
    return step


CODEX = StrategySpec(
    name="codex", label="Codex CLI", title="OpenAI Codex CLI: auto-compaction", family="Codex CLI",
    description="Once Codex's own count (the last response's tokens, what was added since, earlier reasoning) "
                "reaches 90 % of the model's window (244,800 of 272,000 tokens), replaces the whole history with "
                "the person's newest messages (up to 20,000 tokens) and a summary.",
    params=(
        Param("window_tokens", 0, "int", "The model's context window (0: the one the log names, as Codex's "
              "model_context_window, else Codex's 272,000).", "tokens", 0, 10_000_000),
        Param("auto_compact_token_limit", 0, "int", "config.toml's model_auto_compact_token_limit (0: not set); "
              "the limit is the smaller of it and 90 % of the window.", "tokens", 0, 10_000_000),
        Param("user_message_budget_tokens", USER_MESSAGE_BUDGET, "int", "The person's newest messages kept after a "
              "compaction, counted as bytes / 4.", "tokens", 0, 10_000_000),
    ),
    make=_codex, sources=(HISTORY_RS, COMPACT_RS, MODELS_RS, CONFIG_DOC),
    threshold_params=("auto_compact_token_limit", "window_tokens"), threshold=limit_on,
    reverse_engineered=(
        "The 272,000-token window of the GPT-5 models is Codex's model metadata, not documented per model; rollouts "
        "of cli 0.34-0.36 report it, those of 0.55-0.121 report 95 % of it (258,400, effective_context_window_percent).",
        "Checked on the three public rollouts with a compaction (cli 0.117-0.118, gpt-5.4 and gpt-5.4-mini): "
        "Codex's count reaches 244,800 first at the very call each compacted before (55, 35, 40); at the call "
        "before, it was 244,727, 238,430 and 244,170. Without the reasoning term (32,058 tokens on the first) "
        "the first would compact 10 calls later.",
        "Older releases (cli 0.4x, autumn 2025) took the limit from the model family instead: 350,000 for the "
        "gpt-5 codex models, none for the others, compared with the last response's total less its reasoning "
        "output (codex-rs openai_model_info.rs and TokenUsage::tokens_in_context_window of then), and wrote a "
        "summary-only `compacted` line (the importer rebuilds the new start from it). That rule is not modelled: "
        "no public rollout of those releases with a compaction was found to check it on.",
        "Codex's rollout names no trigger: a compaction between turns under 60 % of the window is read as the "
        "person's /compact (agents/codex/triggers.py), not as the preset's to match.",
    ),
    notes=("Before each call Codex counts as its history.rs does (usage_rule.py): the last response's total "
           "tokens, the items recorded since (tool outputs cut to the turn's truncation policy, bytes / 4) when "
           "the turn goes on, and the encrypted reasoning before the person's last turn. At the limit, the history "
           "becomes: the context Codex writes itself (environment context, AGENTS.md), the person's newest "
           f"messages within the budget, and a user message `{SUMMARY_PREFIX[:40]}...` with the summary (compact.rs). "
           "Tool calls, results and answers are dropped; the change is permanent.",
           "Newer Codex versions ask the server to compact (/responses/compact): the summary comes back encrypted "
           "and the kept items include the assistant's answers (cli 0.117+ rollouts). Where the log compacted at "
           "the same call, the replay carries on with what the log shows Codex kept, at the tokens it recorded; "
           "elsewhere it models the local compact.rs, whose summary is written by the replay's summariser."),
)

SPECS = (CODEX,)
