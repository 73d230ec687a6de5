"""Google Gemini CLI's chat compression (packages/core/src/context/chatCompressionService.ts): once
the prompt reaches half the model's token limit, the oldest 70 % of the history (by characters, cut
where the person spoke) becomes a <state_snapshot> summary; the newest 30 % stays, its older tool
outputs shortened to fit a 50,000-token budget."""

import json

from compaction.agents.gemini_cli.log import GEMMA_TOKEN_LIMIT, TOKEN_LIMIT
from compaction.agents.gemini_cli.markers import SUMMARY_PREFIX
from compaction.layers.summary import summarize_into
from compaction.measures.windows import main_model
from compaction.model.history import History
from compaction.model.messages import has_tool_result, has_tool_use
from compaction.model.sizes import message_size
from compaction.strategies.agent_sent import recorded_tokens, sent_by_the_agent
from compaction.strategies.base import Step
from compaction.strategies.params import Param
from compaction.strategies.spec import Source, StrategySpec

THRESHOLD_FROM_2025_11_20, THRESHOLD_BEFORE = 0.5, 0.7  # DEFAULT_COMPRESSION_TOKEN_THRESHOLD by date
ACKNOWLEDGEMENT = "Got it. Thanks for the additional context!"  # the model turn gemini-cli puts after the summary
SERVICE = Source("google-gemini/gemini-cli: packages/core/src/context/chatCompressionService.ts",
                 "https://github.com/google-gemini/gemini-cli/blob/main/packages/core/src/context/"
                 "chatCompressionService.ts")
TOKEN_LIMITS = Source("google-gemini/gemini-cli: packages/core/src/core/tokenLimits.ts",
                      "https://github.com/google-gemini/gemini-cli/blob/main/packages/core/src/core/tokenLimits.ts")
SETTINGS_DOC = Source("Gemini CLI settings: model.compressionThreshold (default 0.5)",
                      "https://github.com/google-gemini/gemini-cli/blob/main/docs/cli/settings.md")


def split_point(messages: list, sizes: list[int], fraction: float) -> int:
    """findCompressSplitPoint: the first message of the person (not a tool turn) at or after `fraction`
    of the characters; everything when none comes after it and the last message is a model answer with
    no call; else the last such message before."""
    target = sum(sizes) * fraction
    last_split, total = 0, 0
    for index, message in enumerate(messages):
        if message.get("role") == "user" and not has_tool_result(message):
            if total >= target:
                return index
            last_split = index
        total += sizes[index]
    if messages and messages[-1].get("role") == "assistant" and not has_tool_use(messages[-1]):
        return len(messages)
    return last_split


def shorten(text: str, chars: int) -> str:
    """formatTruncatedToolOutput: the first 20 % and the last 80 % of `chars` characters."""
    if len(text) <= chars:
        return text
    head = chars // 5
    tail = chars - head
    return (f"Output too large. Showing first {head:,} and last {tail:,} characters. For full output see: "
            f"tool-outputs/compression.txt\n{text[:head]}\n\n... [{len(text) - head - tail:,} characters omitted] "
            f"...\n\n{text[-tail:]}")


def within_budget(history: History, budget: int, chars: int) -> tuple[list, list[int]]:
    """truncateHistoryToBudget: newest first, tool outputs are counted against `budget` tokens; once it
    is spent, each older output is shortened to `chars` characters. Returns new lists; the messages
    changed are copies."""
    messages, sizes = list(history.messages), list(history.sizes)
    spent = 0
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if not has_tool_result(message):
            continue
        content = list(message["content"])
        for position in range(len(content) - 1, -1, -1):
            block = content[position]
            if not isinstance(block, dict) or block.get("type") != "tool_result":
                continue
            raw = block.get("content", "")
            text = raw if isinstance(raw, str) else json.dumps(raw, ensure_ascii=False, indent=2)
            tokens = history.token_model.content_tokens(len(text))
            if spent + tokens > budget and len(text) > chars:
                short = shorten(text, chars)
                content[position] = {**block, "content": short}
                spent += history.token_model.content_tokens(len(short))
            else:
                spent += tokens
        if content != message["content"]:
            messages[index] = {**message, "content": content}
            sizes[index] = message_size(messages[index])
    return messages, sizes


def token_limit(model: str | None) -> int:
    """tokenLimit(model) of gemini-cli: Gemma 4's 256,000; every other model, a Gemini one or not, 1,048,576."""
    return GEMMA_TOKEN_LIMIT if isinstance(model, str) and model.startswith("gemma-4") else TOKEN_LIMIT


def threshold_on(date: str | None) -> float:
    """The default compression threshold on the session's date (YYYY-MM-DD...): 0.5 of the limit from
    c7b5dcd (2025-11-20), 0.7 before (0c70a99, 2025-07-07); a session without a date gets today's 0.5."""
    return THRESHOLD_FROM_2025_11_20 if not date or date[:10] >= "2025-11-20" else THRESHOLD_BEFORE


def session_date(history: History) -> str | None:
    """When the session started: the recording's startTime, else its first message's time."""
    start = history.recorded.metadata.get("start_time")
    if isinstance(start, str) and start:
        return start
    return next((time for time in history.recorded.timestamps if isinstance(time, str) and time), None)


def last_prompt_tokens(history: History) -> int:
    """chat.getLastPromptTokenCount(): the prompt of the call that wrote the newest model turn, as the API
    counted it where the history up to there is what the agent sent, else the estimate of that prompt; 0
    before the first call."""
    position = next((p for p in range(len(history.messages) - 1, -1, -1)
                     if history.messages[p].get("role") == "assistant"), None)
    if position is None:
        return 0
    origin = history.origins[position]
    recorded = recorded_tokens(history, origin) if origin is not None else None
    if recorded is not None and position > 0 and sent_by_the_agent(history, position - 1):
        return recorded
    return history.derive(history.messages[:position], history.sizes[:position],
                          history.origins[:position]).context_tokens


def threshold_at(params: dict, history: History) -> tuple[int, float, int]:
    """(the threshold the step compares the last prompt's tokens with, its share, the model's limit)."""
    fraction = params["threshold_fraction"] or history.shared_value(
        "gemini_threshold", lambda: threshold_on(session_date(history)))
    window = params["window_tokens"] or history.shared_value(
        "gemini_window", lambda: token_limit(main_model(history.recorded.usage)))
    return max(int(window * fraction), 1), fraction, window


def _gemini(params: dict):
    def step(history: History, settings, store=None, summarizer=None) -> Step:
        threshold, fraction, window = threshold_at(params, history)
        tokens = last_prompt_tokens(history)
        compared = (tokens, threshold)  # read nowhere else but in the reason
        if tokens < threshold or not history.messages:
            return Step(history, compared=compared)
        messages, sizes = within_budget(history, params["function_response_budget_tokens"], params["truncate_chars"])
        shortened = history.derive(messages, sizes, list(history.origins))
        split = split_point(messages, sizes, 1 - params["preserve_fraction"])
        if split == 0:
            return Step(history, compared=compared)  # nothing before the newest share can be compressed
        reason = (f"the last prompt's {tokens:,} tokens >= {fraction:g} of {window:,}; "
                  f"keeping the newest {len(messages) - split} message(s)")
        result = summarize_into(shortened, split, SUMMARY_PREFIX, reason, "auto_compact", summarizer, store,
                                summary_input=history.messages[:split])
        sent = result.history
        if sent is shortened:  # the summary failed: gemini-cli keeps the history as it was
            return Step(history, ("auto_compact",), tuple(result.events), compared=compared)
        ack = {"role": "assistant", "content": ACKNOWLEDGEMENT}
        sent = sent.derive([sent.messages[0], ack, *sent.messages[1:]],
                           [sent.sizes[0], message_size(ack), *sent.sizes[1:]], [None, None, *sent.origins[1:]])
        if sent.context_tokens > tokens:  # COMPRESSION_FAILED_INFLATED_TOKEN_COUNT: the old history stays
            return Step(history, ("auto_compact",), tuple(result.events), compared=compared)
        return Step(sent, ("auto_compact",), tuple(result.events), compared=compared)
    return step


GEMINI_CLI = StrategySpec(
    name="gemini-cli", label="Gemini CLI", title="Google Gemini CLI: chat compression", family="Gemini CLI",
    description="At half the model's token limit, summarises the oldest 70 % of the history into a state snapshot "
                "and keeps the newest 30 %, cut where the person spoke.",
    params=(
        Param("window_tokens", 0, "int", "The model's token limit (0: gemini-cli's tokenLimit of the log's model, "
              "256,000 for Gemma 4, else 1,048,576).", "tokens", 0, 10_000_000),
        Param("threshold_fraction", 0.0, "float", "Compress once the last prompt reaches this share of the limit "
              "(model.compressionThreshold; 0: gemini-cli's default on the session's date, 0.5 from 20 Nov 2025, "
              "0.7 before).", "of the window", 0.0, 1.0),
        Param("preserve_fraction", 0.3, "float", "The newest share of the history's characters kept "
              "(COMPRESSION_PRESERVE_THRESHOLD).", "of the history", 0.01, 0.99),
        Param("function_response_budget_tokens", 50_000, "int", "Newest tool outputs kept whole; older ones are "
              "shortened (COMPRESSION_FUNCTION_RESPONSE_TOKEN_BUDGET).", "tokens", 0, 10_000_000),
        Param("truncate_chars", 40_000, "int", "What a shortened tool output keeps (truncateToolOutputThreshold).",
              "characters", 100, 10_000_000),
    ),
    make=_gemini, sources=(SERVICE, TOKEN_LIMITS, SETTINGS_DOC),
    threshold_params=("threshold_fraction", "window_tokens"),
    threshold=lambda params, history: threshold_at(params, history)[0],
    reverse_engineered=(
        "Which threshold a session ran with is not in the source alone: a remote experiment flag "
        "(CONTEXT_COMPRESSION_THRESHOLD) overrides the default, and the default moved (0.7 of the limit until "
        "October 2025, 0.2 from 30 Oct, 0.7 from 14 Nov, 0.5 from 20 Nov 2025: gemini-cli commits 68afb72, 6d83d34, "
        "c7b5dcd).",
        "Real recordings show compression at 526,049 tokens (gemini-2.5-flash, Feb 2026) and at 68 % and 64 % of "
        "the limit (gemini-2.5-pro, Apr 2026), all past 0.5 of 1,048,576 = 524,288.",
    ),
    notes=("Before each call, when the whole request reaches the threshold: tool outputs beyond the newest "
           "50,000 tokens are shortened to 40,000 characters (20 % head, 80 % tail); the history is cut at the "
           "first message of the person past 70 % of its characters; what is before becomes a user message "
           f"`{SUMMARY_PREFIX}` with the summary, followed by the model turn `{ACKNOWLEDGEMENT}`; the change "
           "is permanent.",
           "gemini-cli compares the last call's prompt tokens; the replay compares the request it is about to send. "
           "If the new history would be larger than the old, nothing changes, as in gemini-cli.",
           "gemini-cli writes the snapshot in two model calls (a draft and a self-check); the replay's summariser "
           "writes it once, with its own prompt."),
)

SPECS = (GEMINI_CLI,)
