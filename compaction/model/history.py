"""A history with what every layer needs precomputed: sizes, origins and the tool index.

`prepare` does the work that depends only on the loaded conversation (one pass over it), so
re-running the layers with other settings never measures an unchanged message again.
A History is read-only by convention: layers build new lists and new message dicts for what they
change and share the untouched message dicts.
"""

from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from compaction.errors import ConversationError
from compaction.model.calibration import Calibration, calibrate
from compaction.model.conversation import Conversation
from compaction.model.messages import Message, tool_result_positions
from compaction.model.sizes import list_size
from compaction.model.tokens import DEFAULT_TOKEN_MODEL, TokenModel
from compaction.model.tool_index import ResultBlocks, ToolNames
from compaction.model.validity import check_pairs

ROLES = {"user", "assistant"}


@dataclass(frozen=True)
class Recorded:
    """What a log recorded beside its messages: usage and time per message, its own compactions."""

    usage: list = field(default_factory=list)  # per message: the call's usage at an assistant message, or None
    timestamps: list = field(default_factory=list)  # per message, ISO 8601 text or None
    boundaries: list = field(default_factory=list)  # {"index", "trigger", "pre_tokens"}


NOTHING_RECORDED = Recorded()


@dataclass
class History:
    messages: list[Message]
    sizes: list[int]  # len(str(message)) per message
    origins: list[int | None]  # index in the prepared conversation; None for a message a layer made
    tool_names: ToolNames  # tool_use id -> tool name, in the prepared conversation
    originals: list[Message]  # the prepared conversation's messages, to recognise untouched ones
    result_blocks: ResultBlocks  # origin -> positions of its tool_result blocks
    overhead: int = 0  # characters of the system prompt and tool definitions sent beside the messages
    token_model: TokenModel = DEFAULT_TOKEN_MODEL  # characters -> tokens for this conversation
    calibration: "Calibration | None" = None  # the fit on the log's recorded usage behind token_model
    recorded: Recorded = NOTHING_RECORDED  # what the log recorded beside the messages
    # repr length of an original tool_result's content by (origin, block position); filled lazily
    content_repr: dict[tuple[int, int], int] = field(default_factory=dict, repr=False)
    # persisted outputs already written, by (store root, origin, block position)
    persisted_cache: dict[tuple[str, int, int], Any] = field(default_factory=dict, repr=False)
    _pair_problems: list | None = field(default=None, repr=False)  # check_pairs of these messages
    # what a strategy remembers between calls of one replay (strategies/memo.py), shared like the caches
    memo: dict = field(default_factory=dict, repr=False)
    # indexes of the prepared conversation built on first use (measures/meter.py), shared likewise;
    # filling one twice from two threads gives the same value, so no lock is needed
    shared: dict = field(default_factory=dict, repr=False)
    # list_size(sizes), worked out on first use: a replay asks for it several times per call
    _size: int | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def size(self) -> int:
        if self._size is None:
            self._size = list_size(self.sizes)
        return self._size

    @property
    def context_size(self) -> int:
        return self.size + self.overhead

    @property
    def tokens(self) -> int:
        """Estimated tokens of the messages (`size`) alone, no system prompt, tools or overhead."""
        return self.token_model.content_tokens(self.size)

    @property
    def context_tokens(self) -> int:
        """Estimated tokens a call sending this history carries: messages, system prompt and tools,
        and what the log does not hold (the token model's overhead)."""
        return self.token_model.tokens(self.context_size)

    def __len__(self) -> int:
        return len(self.messages)

    def pair_problems(self) -> list:
        """check_pairs of these messages, computed once: a prepared conversation is checked only once."""
        if self._pair_problems is None:
            self._pair_problems = check_pairs(self.messages)
        return self._pair_problems

    def is_original(self, position: int) -> bool:
        origin = self.origins[position]
        return origin is not None and self.messages[position] is self.originals[origin]

    def original_content_repr(self, origin: int, block_position: int) -> int:
        key = (origin, block_position)
        cached = self.content_repr.get(key)
        if cached is None:
            block = self.originals[origin]["content"][block_position]
            cached = self.content_repr[key] = len(repr(block.get("content", "")))
        return cached

    def shared_value(self, key, build):
        """The conversation's index under `key`, built by `build()` on first use and shared by every
        history derived from this one."""
        found = self.shared.get(key)
        if found is None:
            found = self.shared[key] = build()
        return found

    def derive(self, messages: list[Message], sizes: list[int], origins: list[int | None]) -> "History":
        """A new history sharing this one's index and caches. Copies the attributes instead of calling
        __init__ with all seventeen: a replay derives several histories per call."""
        derived = object.__new__(History)
        attributes = self.__dict__.copy()
        attributes.update(messages=messages, sizes=sizes, origins=origins, _pair_problems=None, _size=None)
        derived.__dict__ = attributes
        return derived

    def tool_name(self, tool_use_id: Any, origin: int | None = None) -> str:
        return self.tool_names.name(tool_use_id, origin)


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
                            conversation.metadata.get("compact_boundaries") or [])
        if conversation.has_usage:
            calibration = calibrate(sizes, overhead, recorded.usage, recorded.boundaries)
    return History(
        messages=messages,
        sizes=sizes,
        origins=list(range(len(messages))),
        tool_names=ToolNames(messages),
        originals=messages,
        result_blocks=ResultBlocks(messages),
        overhead=overhead,
        token_model=calibration.model if calibration else DEFAULT_TOKEN_MODEL,
        calibration=calibration,
        recorded=recorded,
        _pair_problems=problems,
    )


def result_positions(history: History, position: int) -> tuple[int, ...]:
    """Positions of the tool_result blocks in the message at `position` of `history`."""
    if history.is_original(position):
        return history.result_blocks.positions(history.origins[position])
    return tool_result_positions(history.messages[position])


def content_repr_len(history: History, position: int, block_position: int) -> int:
    """len(repr(content)) of a tool_result block, from the cache when the message is untouched."""
    if history.is_original(position):
        return history.original_content_repr(history.origins[position], block_position)
    block = history.messages[position]["content"][block_position]
    return len(repr(block.get("content", "")))
