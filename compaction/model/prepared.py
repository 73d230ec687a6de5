"""A conversation measured once: what depends only on the loaded messages, never on the settings.

`Prepared` holds the original messages and their sizes, the tool index, the token model calibrated on
the log, and what the log recorded beside its messages. It is frozen and shared read-only: by every
history a layer derives from it, by every replay and sweep cell, and between browser sessions (the
dashboard caches one per loaded file). Indexes that only some pages need (the term index, the artifacts,
the compact-tool turns) are built on first use through `index(key, build)`; building one is idempotent,
so two threads that race build the same value and either may win.
"""

import threading
from dataclasses import dataclass, field
from typing import Any

from compaction.model.calibration import Calibration
from compaction.model.messages import Message
from compaction.model.tokens import DEFAULT_TOKEN_MODEL, TokenModel
from compaction.model.tool_index import ResultBlocks, ToolNames


@dataclass(frozen=True)
class Recorded:
    """What a log recorded beside its messages: usage and time per message, its own compactions, the
    version of the agent that wrote it, and the run's totals when the log gives them."""

    usage: list = field(default_factory=list)  # per message: the call's usage at an assistant message, or None
    timestamps: list = field(default_factory=list)  # per message, ISO 8601 text or None
    boundaries: list = field(default_factory=list)  # {"index", "trigger", "pre_tokens", ...}
    agent_version: str | None = None  # e.g. "2.1.41", the agent's version when the log says
    # messages the agent wrote only because it compacted (its own summaries): no uncompacted history has them
    agent_summaries: frozenset = frozenset()
    totals: dict | None = None  # what the log says of the whole run (importers/totals.py), when it does
    # the model the log names for the whole run (its totals', else its metadata's `model`): the one its
    # calls are priced at when their usage names none
    run_model: str | None = None
    # what the agent's log says its first call carried besides the messages (its lines beside them)
    start_attachments: tuple = ()
    # the importer's facts about the log (Conversation.metadata), read-only: what an agent's preset reads of
    # its own log (the window and limit it names, sizes it recorded)
    metadata: dict = field(default_factory=dict)


NOTHING_RECORDED = Recorded()


@dataclass(frozen=True, eq=False)
class Prepared:
    """One measured conversation (see the module docstring). Compared by identity: two are the same
    only when they are the same object."""

    messages: list[Message]  # the originals, never changed
    sizes: list[int]  # len(str(message)) per message
    tool_names: ToolNames  # tool_use id -> tool name
    result_blocks: ResultBlocks  # origin -> positions of its tool_result blocks
    overhead: int = 0  # characters of the system prompt and tool definitions sent beside the messages
    token_model: TokenModel = DEFAULT_TOKEN_MODEL  # characters -> tokens for this conversation
    calibration: Calibration | None = None  # the fit on the log's recorded usage behind token_model
    recorded: Recorded = NOTHING_RECORDED
    pair_problems: list | None = None  # check_pairs of the messages, when the loader already ran it
    _indexes: dict = field(default_factory=dict, repr=False)
    _lock: Any = field(default_factory=threading.Lock, repr=False)

    def index(self, key, build):
        """The derived index under `key`, built by `build()` on first use."""
        found = self._indexes.get(key)
        if found is None:
            built = build()
            with self._lock:
                found = self._indexes.setdefault(key, built)
        return found

    def content_repr(self, origin: int, block_position: int) -> int:
        """len(repr(content)) of an original tool_result block (L2 asks it at every call)."""
        table = self.index("content_repr", dict)
        key = (origin, block_position)
        found = table.get(key)
        if found is None:
            found = table[key] = len(repr(self.messages[origin]["content"][block_position].get("content", "")))
        return found

    def with_messages(self, messages: list[Message], sizes: list[int]) -> "Prepared":
        """The same measured facts (overhead, token model, recorded usage) over other messages: a layer's
        output replayed as a conversation of its own."""
        return Prepared(messages, sizes, ToolNames(messages), ResultBlocks(messages), self.overhead,
                        self.token_model, self.calibration, self.recorded)
