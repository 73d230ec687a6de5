"""Aider's chat-history summarisation (aider/history.py ChatSummary, run by base_coder.py on the done
messages): once they pass max_chat_history_tokens, the newest ones under half of it stay and the older
ones become one summary, again on the result while it is still too big."""

from compaction.agents.aider.markers import ACKNOWLEDGEMENT, SUMMARY_PREFIX
from compaction.layers.summary import summarize_into
from compaction.model.history import History
from compaction.model.messages import has_tool_result
from compaction.model.sizes import message_size
from compaction.strategies import actions
from compaction.strategies.base import Step
from compaction.strategies.params import Param
from compaction.strategies.spec import Source, StrategySpec

WINDOW_TOKENS = 200_000  # max_input_tokens of the Claude Sonnet models in litellm's table, aider's usual model
HISTORY_FLOOR, HISTORY_CAP = 1_024, 8_192  # models.py: min(max(max_input_tokens / 16, 1024), 8192)
MIN_SPLIT = 4  # history.py: this many messages or fewer are summarised whole
MAX_DEPTH = 3  # history.py: past this depth everything is summarised
SUMMARIZER_RESERVE = 512  # history.py: the summariser's max_input_tokens less this bounds the head it reads
HISTORY = Source("Aider-AI/aider: aider/history.py (ChatSummary: too_big, summarize, summarize_real)",
                 "https://github.com/Aider-AI/aider/blob/main/aider/history.py")
MODELS = Source("Aider-AI/aider: aider/models.py (max_chat_history_tokens = min(max(max_input_tokens / 16, 1024), "
                "8192))", "https://github.com/Aider-AI/aider/blob/main/aider/models.py")
CODER = Source("Aider-AI/aider: aider/coders/base_coder.py (summarize_start, summarize_end, move_back_cur_messages)",
               "https://github.com/Aider-AI/aider/blob/main/aider/coders/base_coder.py")
PROMPTS = Source("Aider-AI/aider: aider/prompts.py (summarize, summary_prefix)",
                 "https://github.com/Aider-AI/aider/blob/main/aider/prompts.py")
OPTIONS = Source("Aider options: --max-chat-history-tokens (.aider.conf.yml max-chat-history-tokens)",
                 "https://aider.chat/docs/config/options.html")


def history_limit(params: dict) -> int:
    """max_chat_history_tokens: the one set, else aider's default for the model's window."""
    configured = params["max_chat_history_tokens"]
    return configured or int(min(max(params["window_tokens"] / 16, HISTORY_FLOOR), HISTORY_CAP))


def exchange_start(messages: list) -> int:
    """Where the current exchange begins (aider's cur_messages): the person's newest message, a tool turn
    not counting; 0 when there is none. What is before it is the done messages."""
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if message.get("role") == "user" and not has_tool_result(message):
            return index
    return 0


def tail_start(messages: list, tokens: list[int], end: int, limit: int) -> int:
    """The first of the newest done messages kept whole: they weigh under half the limit, and the head
    before them ends with an assistant message (a tool turn stays with its call: the lab's rule, aider's
    chat has none)."""
    kept, split = 0, end
    for index in range(end - 1, -1, -1):
        if kept + tokens[index] >= limit // 2:
            break
        kept += tokens[index]
        split = index
    while split > 1 and (messages[split - 1].get("role") != "assistant"
                         or (split < end and has_tool_result(messages[split]))):
        split -= 1
    return split


class _Summary:
    """One run of ChatSummary.summarize over the done messages of a history."""

    def __init__(self, params: dict, summarizer, store, reason: str):
        self.limit = history_limit(params)
        self.head_budget = (params["summarizer_window_tokens"] or params["window_tokens"]) - SUMMARIZER_RESERVE
        self.summarizer, self.store, self.reason = summarizer, store, reason
        self.events: list = []

    def tokens(self, history: History, end: int) -> list[int]:
        return [history.token_model.content_tokens(size) for size in history.sizes[:end]]

    def run(self, history: History, end: int, depth: int = 0) -> tuple[History, int] | None:
        """(the history with its done messages summarised, where they end now); None if the summary failed."""
        tokens = self.tokens(history, end)
        if end <= MIN_SPLIT or depth > MAX_DEPTH:
            return self._all(history, end)
        split = tail_start(history.messages, tokens, end, self.limit)
        if split <= MIN_SPLIT:
            return self._all(history, end)
        head, total = [], 0
        for message, weight in zip(history.messages[:split], tokens, strict=False):
            total += weight
            if total > self.head_budget:  # the head past the summariser's window is dropped unread
                break
            head.append(message)
        summarised = self._summarise(history, split, head)
        if summarised is None:
            return None
        end = end - split + 1
        if sum(self.tokens(summarised, end)) < self.limit:
            return summarised, end
        return self.run(summarised, end, depth + 1)

    def _all(self, history: History, end: int) -> tuple[History, int] | None:
        summarised = self._summarise(history, end, history.messages[:end])
        return None if summarised is None else (summarised, 1)

    def _summarise(self, history: History, split: int, head: list) -> History | None:
        result = summarize_into(history, split, SUMMARY_PREFIX, self.reason, "summary", self.summarizer, self.store,
                                summary_input=head)
        self.events.extend(result.events)
        return None if result.history is history else result.history


def with_acknowledgement(history: History, end: int) -> History:
    """summarize(): a done part that does not end with an assistant message gets its "Ok."."""
    if history.messages[end - 1].get("role") == "assistant":
        return history
    answer = {"role": "assistant", "content": ACKNOWLEDGEMENT}
    return history.derive([*history.messages[:end], answer, *history.messages[end:]],
                          [*history.sizes[:end], message_size(answer), *history.sizes[end:]],
                          [*history.origins[:end], None, *history.origins[end:]])


def _aider(params: dict):
    limit = history_limit(params)

    def step(history: History, settings, store=None, summarizer=None) -> Step:
        end = exchange_start(history.messages)
        if end == 0:
            return Step(history)
        done = sum(history.token_model.content_tokens(size) for size in history.sizes[:end])
        if done <= limit:
            return Step(history)
        summary = _Summary(params, summarizer, store, f"{done:,} tokens of done messages > max_chat_history_tokens "
                                                      f"{limit:,}")
        found = summary.run(history, end)
        if found is None:  # aider warns and keeps the chat history as it was
            return Step(history, ("summary",), tuple(summary.events))
        return Step(with_acknowledgement(*found), ("summary",), tuple(summary.events))
    return step


AIDER = StrategySpec(
    name="aider", label="Aider", title="Aider: chat-history summarisation", family="Aider",
    description="Once the chat history before the person's newest message passes max_chat_history_tokens "
                "(8,192 for a 200,000-token model), keeps its newest messages under half of that and summarises "
                "the older ones into one message.",
    actions=(actions.SUMMARY,),
    params=(
        Param("window_tokens", WINDOW_TOKENS, "int", "The main model's max_input_tokens (litellm's model table); "
              "the default history limit is 1/16 of it, from 1,024 to 8,192.", "tokens", 1_000, 10_000_000),
        Param("max_chat_history_tokens", 0, "int", "--max-chat-history-tokens (0: not set, aider's default for "
              "the window).", "tokens", 0, 10_000_000),
        Param("summarizer_window_tokens", 0, "int", "The weak model's max_input_tokens (0: the window's); the "
              "summary reads the oldest messages that fit in it, less 512.", "tokens", 0, 10_000_000),
    ),
    make=_aider, sources=(HISTORY, MODELS, CODER, PROMPTS, OPTIONS),
    reverse_engineered=(
        "The default limit depends on the model's max_input_tokens in litellm's table (1,024 when the model is "
        "unknown); the cap was 4,096 until aider commit 463fdb1 (2025-01-04), 8,192 since.",
        "A chat history keeps no trace of a summary: aider writes neither it nor a notice (only --verbose prints "
        "\"Starting to summarize chat history.\"), so real histories cannot show where it fired.",
    ),
    notes=("Before each call, the messages before the person's newest one are aider's done messages; when their "
           "tokens pass the limit, the newest of them weighing under half the limit stay (moved back until what "
           "precedes them ends with an assistant message), the older ones (as many as fit the summariser's window "
           f"less 512) become a user message `{SUMMARY_PREFIX}` with the summary; while summary and kept messages "
           "still pass the limit it summarises again (three levels, then everything). A summary of everything is "
           f"followed by an assistant `{ACKNOWLEDGEMENT}`. The change is permanent.",
           "Aider moves an exchange into the done messages once its edits are applied, summarises in a background "
           "thread after the exchange and swaps the result in at the next call; the replay counts every exchange "
           "before the person's newest message as done and summarises before the call.",
           "Aider counts each message with the model's tokenizer; the replay with the conversation's token model. "
           "The system prompt, repository map and files aider sends are not part of the chat history and are "
           "never summarised.",
           "Aider's summary follows its first line after a line break; the replay's after a blank line, as the "
           "lab's summaries are written."),
)

SPECS = (AIDER,)
