"""A history: the messages one call would send, with their sizes and where each came from.

A History is light: its messages, their sizes (len(str(message))), their origins (the index of each in
the loaded conversation; None for a message a layer made), a reference to the `Prepared` conversation
(measured once, frozen, shared: prepared.py) and to the run it belongs to (`RunContext`: what a strategy
remembers from one call to the next of one replay). Layers build new lists and new message dicts for
what they change and share the untouched message dicts, so a History is never changed after it is made.
"""

from operator import itemgetter
from typing import Any

from compaction.errors import ConversationError
from compaction.model.calibration import calibrate
from compaction.model.conversation import RECORDED_TOTALS, Conversation
from compaction.model.messages import Message, tool_result_positions
from compaction.model.prepared import NOTHING_RECORDED, Prepared, Recorded
from compaction.model.sizes import list_size
from compaction.model.tokens import DEFAULT_TOKEN_MODEL, TokenModel
from compaction.model.tool_index import ResultBlocks, ToolNames
from compaction.model.validity import check_pairs

ROLES = {"user", "assistant"}


class RunContext:
    """What one run (a replay, a pipeline pass) carries between its calls: the strategies' memo
    (strategies/memo.py). Every history derived within the run shares it; another run starts afresh."""

    __slots__ = ("memo",)

    def __init__(self):
        self.memo: dict = {}


def anchored_tokens(model, anchor: tuple[int, int] | None, context_size: int) -> int:
    """The estimated tokens of a context of `context_size` characters: measured from `anchor` (tokens
    recorded for a context of so many characters) while it holds at least half those characters, else
    the token model's estimate afresh."""
    if anchor is not None and 2 * context_size >= anchor[1]:
        tokens, chars = anchor  # still most of what was recorded: measure from there
        change = context_size - chars
        return max(tokens + (model.content_tokens(change) if change >= 0 else -model.content_tokens(-change)), 1)
    return model.tokens(context_size)


class History:
    __slots__ = ("messages", "sizes", "origins", "prepared", "run", "known_tokens", "anchor", "_size",
                 "_pair_problems")

    def __init__(self, messages: list[Message], sizes: list[int], origins: list[int | None], prepared: Prepared,
                 run: RunContext | None = None, pair_problems: list | None = None):
        self.messages = messages
        self.sizes = sizes
        self.origins = origins
        self.prepared = prepared
        self.run = run or RunContext()
        # the tokens a call sending exactly these messages carried, when the log recorded that call (the
        # replay sets it while the history is still what the agent sent); None: estimated
        self.known_tokens: int | None = None
        # (tokens, context characters) of a history whose tokens the log recorded (an earlier one of this run,
        # or what the agent sent at this call): while this one holds at least half as many characters, its
        # estimate measures from there (what was recorded, plus or minus the characters that differ)
        self.anchor: tuple[int, int] | None = None
        self._size: int | None = None  # list_size(sizes), worked out on first use: a replay asks several times
        self._pair_problems = pair_problems

    def __eq__(self, other) -> bool:
        """The same messages, sizes and origins over the same prepared conversation."""
        if not isinstance(other, History):
            return NotImplemented
        return (self.prepared is other.prepared and self.origins == other.origins and self.sizes == other.sizes
                and self.messages == other.messages)

    # mutable lists inside: not a dict key (typeshed types object.__hash__ as a method, not as None)
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"History({len(self.messages):,} messages, {self.size:,} characters)"

    # what the prepared conversation knows, asked through the history for brevity
    @property
    def originals(self) -> list[Message]:
        return self.prepared.messages

    @property
    def overhead(self) -> int:
        return self.prepared.overhead

    @property
    def token_model(self):
        return self.prepared.token_model

    @property
    def calibration(self):
        return self.prepared.calibration

    @property
    def recorded(self) -> Recorded:
        return self.prepared.recorded

    @property
    def tool_names(self) -> ToolNames:
        return self.prepared.tool_names

    @property
    def result_blocks(self) -> ResultBlocks:
        return self.prepared.result_blocks

    @property
    def memo(self) -> dict:
        return self.run.memo

    @property
    def size(self) -> int:
        if self._size is None:
            self._size = list_size(self.sizes)
        return self._size

    @property
    def context_size(self) -> int:
        return self.size + self.prepared.overhead

    @property
    def tokens(self) -> int:
        """Estimated tokens of the messages (`size`) alone, no system prompt, tools or overhead."""
        return self.prepared.token_model.content_tokens(self.size)

    @property
    def context_tokens(self) -> int:
        """Tokens a call sending this history carries: messages, system prompt and tools, and what the log
        does not hold. What the log recorded when it is known (`known_tokens`), else the token model's
        estimate."""
        if self.known_tokens is not None:
            return self.known_tokens
        return anchored_tokens(self.prepared.token_model, self.anchor, self.context_size)

    def anchored(self, tokens: int, chars: int) -> "History":
        """The same history, its estimate measured from `tokens` recorded for `chars` context characters."""
        found = History(self.messages, self.sizes, self.origins, self.prepared, self.run, self._pair_problems)
        found.anchor = (tokens, chars)
        found._size = self._size
        return found

    def knowing(self, tokens: int | None) -> "History":
        """The same history, its tokens known to be `tokens` (a derived history estimates again)."""
        known = History(self.messages, self.sizes, self.origins, self.prepared, self.run, self._pair_problems)
        known.known_tokens = tokens
        known._size = self._size
        return known

    def __len__(self) -> int:
        return len(self.messages)

    def pair_problems(self) -> list:
        """check_pairs of these messages, computed once: a prepared conversation is checked only once."""
        if self._pair_problems is None:
            prepared = self.prepared
            if self.messages is prepared.messages:  # the conversation itself: checked once for all its histories
                self._pair_problems = prepared.index("pair_problems", lambda: check_pairs(prepared.messages)
                                                     if prepared.pair_problems is None else prepared.pair_problems)
            else:
                self._pair_problems = check_pairs(self.messages)
        return self._pair_problems

    def is_original(self, position: int) -> bool:
        return self.original_origin(position) is not None

    def original_origin(self, position: int) -> int | None:
        """The origin of the message at `position` while it is the original itself, else None."""
        origin = self.origins[position]
        return origin if origin is not None and self.messages[position] is self.prepared.messages[origin] else None

    def shared_value(self, key, build):
        """The prepared conversation's index under `key` (Prepared.index)."""
        return self.prepared.index(key, build)

    def derive(self, messages: list[Message], sizes: list[int], origins: list[int | None]) -> "History":
        """A new history over the same prepared conversation, in the same run. It estimates its tokens from
        this one's recorded tokens while it still holds most of what they measured (at least half the
        characters: an appended message, a preview, a placeholder), and afresh after a summary or a snip
        (see `anchor`)."""
        derived = History(messages, sizes, origins, self.prepared, self.run)
        derived.anchor = (self.known_tokens, self.context_size) if self.known_tokens is not None else self.anchor
        return derived

    def start(self) -> "History":
        """An empty history over the same prepared conversation, in a run of its own (a new replay)."""
        return History([], [], [], self.prepared)

    def tool_name(self, tool_use_id: Any, origin: int | None = None) -> str:
        return self.prepared.tool_names.name(tool_use_id, origin)


def _check_shape(messages: Any) -> None:
    if not isinstance(messages, list):
        raise ConversationError(f"expected a list of messages, got {type(messages).__name__}")
    # set(map(...)) keeps the common, valid case at C speed; the loop below only names the culprit
    try:
        if set(map(type, messages)) <= {dict} and set(map(itemgetter("role"), messages)) <= ROLES:
            return
    except (KeyError, TypeError):
        pass  # a message without a role, or a role that is not hashable: the loop names it
    for index, message in enumerate(messages):
        if not isinstance(message, dict):
            raise ConversationError(f"expected an object, got {type(message).__name__}", f"message {index}")
        role = message.get("role")
        if not isinstance(role, str) or role not in ROLES:
            raise ConversationError(f"role must be 'user' or 'assistant', got {role!r}",
                                    f"message {index}")


def prepare(conversation: "list[Message] | Conversation | History") -> History:
    """Measure a conversation once. Accepts a message list, a loaded Conversation or a History."""
    if isinstance(conversation, History):
        return conversation
    overhead = 0
    problems = None
    if isinstance(conversation, Conversation):
        problems = conversation.pair_problems
        if conversation.system:
            overhead += len(str(conversation.system))
        if conversation.tools:
            overhead += len(str(conversation.tools))
        messages = conversation.messages
    else:
        messages = conversation
    _check_shape(messages)
    messages = list(messages)
    sizes = list(map(len, map(str, messages)))  # message_size for each, without a Python loop
    calibration, recorded = None, NOTHING_RECORDED
    if isinstance(conversation, Conversation):
        recorded = Recorded(conversation.usage, conversation.timestamps,
                            conversation.metadata.get("compact_boundaries") or [],
                            conversation.metadata.get("agent_version"),
                            frozenset(conversation.metadata.get("compact_summary_indices") or ()),
                            *_run_facts(conversation.metadata),
                            tuple(conversation.metadata.get("start_attachments") or ()),
                            metadata=conversation.metadata)
        if conversation.has_usage and given_model(conversation.metadata) is None:
            calibration = calibrate(sizes, overhead, recorded.usage, recorded.boundaries)
    model = given_model(conversation.metadata) if isinstance(conversation, Conversation) else None
    prepared = Prepared(messages, sizes, ToolNames(messages), ResultBlocks(messages), overhead,
                        model or (calibration.model if calibration else DEFAULT_TOKEN_MODEL), calibration, recorded,
                        problems)
    return History(messages, sizes, list(range(len(messages))), prepared, pair_problems=problems)


def given_model(metadata: dict) -> TokenModel | None:
    """The token model a log says it counted with (a compacting client's trace), or None: calibrate."""
    found = metadata.get("token_model") if isinstance(metadata, dict) else None
    if not isinstance(found, dict):
        return None
    try:
        return TokenModel(float(found["tokens_per_char"]), int(found["overhead_tokens"]), bool(found["calibrated"]))
    except (KeyError, TypeError, ValueError):
        return None


def _run_facts(metadata: dict) -> tuple[dict | None, str | None]:
    """(the run's totals, the model named for the whole run) from a conversation's metadata."""
    totals = metadata.get(RECORDED_TOTALS) if isinstance(metadata.get(RECORDED_TOTALS), dict) else None
    model = next((found for found in ((totals or {}).get("model"), metadata.get("model"))
                  if isinstance(found, str) and found.strip()), None)
    return totals, model


def remeasured(messages: list[Message], like: Prepared) -> History:
    """`messages` as a conversation of their own (origins 0..n-1), with what `like` measured beside its
    messages (overhead, token model, recorded usage): a layer's output replayed, or a sweep's conversation
    on a worker."""
    history = prepare(messages)
    return History(history.messages, history.sizes, history.origins,
                   like.with_messages(history.messages, history.sizes))


def result_positions(history: History, position: int) -> tuple[int, ...]:
    """Positions of the tool_result blocks in the message at `position` of `history`."""
    origin = history.original_origin(position)
    if origin is not None:
        return history.result_blocks.positions(origin)
    return tool_result_positions(history.messages[position])


def content_repr_len(history: History, position: int, block_position: int) -> int:
    """len(repr(content)) of a tool_result block, from the cache when the message is untouched."""
    origin = history.original_origin(position)
    if origin is not None:
        return history.prepared.content_repr(origin, block_position)
    block = history.messages[position]["content"][block_position]
    return len(repr(block.get("content", "")))
