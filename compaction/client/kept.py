"""The conversation a compacting client keeps: every message the caller gave (the originals, growing
call by call) and the history the strategy left, which the next call starts from.

The turns are walked by the replay's own protocol (compaction/replay/protocol.py, `TurnProtocol`), as a
replay's loops walk them: each new message joins the kept history, and a `compact` call compacts once the
message that answers it has arrived, keeping verbatim what the settings keep. The originals only grow, so the history's origins stay valid; each call
measures them as one conversation of their own (`Prepared`), sharing the message dicts, so the layers
see an unchanged message as the original it is, as in a replay.
"""

from compaction.client.blocks import plain_message
from compaction.errors import ConversationError
from compaction.layers.compact_tool import answer_compact_call, compact_calls
from compaction.model.history import History, RunContext
from compaction.model.messages import Message, tool_results
from compaction.model.prepared import Prepared, Recorded
from compaction.model.sizes import message_size
from compaction.model.tokens import DEFAULT_TOKEN_MODEL, TokenModel
from compaction.model.tool_index import ResultBlocks, ToolNames
from compaction.replay.protocol import TurnProtocol


class KeptConversation:
    def __init__(self, turns: TurnProtocol, token_model: TokenModel = DEFAULT_TOKEN_MODEL):
        self.turns = turns  # the walk of the turns, the compact tool's pending events with it
        self.token_model = token_model
        self.originals: list[Message] = []
        self.sizes: list[int] = []
        self.overhead = 0  # characters of the system prompt and tools of the latest call
        self.run = RunContext()  # what the strategy carries between calls (its memo)
        self.kept: History | None = None
        self._compact_ids: set[str] = set()  # ids of compact calls waiting for their answer
        self._given: dict[int, Message] = {}  # the first and the last message as the caller gave them
        # what the client's strategies read of the "log", as they read it in its trace: the usage the API
        # answered, at the response it was passed back as, and the calls at which the client summarised
        self.usage: list[dict | None] = []
        self.boundaries: list[dict] = []
        self._answer: dict | None = None  # the last response's usage, until the caller passes it back

    @property
    def seen(self) -> int:
        return len(self.originals)

    def new_messages(self, given: list) -> list[Message]:
        """The caller's messages after the ones already seen, as plain dicts. They must extend what was seen
        (an agent loop only appends): the first and the last message seen are checked, not every one, so a
        call costs what is new."""
        if len(given) < self.seen:
            raise ConversationError(f"messages= holds {len(given):,} messages, fewer than the {self.seen:,} this "
                                    "client has already seen: pass the whole conversation, or call reset() to "
                                    "start another one")
        for position, message in self._given.items():
            if plain_message(given[position], position) != message:
                raise ConversationError(f"message {position} is not the one passed before: this client compacts "
                                        "one conversation that only grows; call reset() to start another one",
                                        where=f"messages[{position}]")
        return [plain_message(message, position) for position, message in enumerate(given[self.seen:], self.seen)]

    def extend(self, new: list[Message], overhead: int) -> History:
        """Append the caller's new messages; the history the next call's strategy starts from."""
        self.overhead = overhead
        start = len(self.originals)
        if new:
            self._given = {0: self._given.get(0, new[0]), start + len(new) - 1: new[-1]}
        answered = []
        for message in new:
            answered.append(self._answered(message))
            calls = compact_calls(message) if message.get("role") == "assistant" else []
            self._compact_ids = {str(use.get("id")) for use in calls}
        self.originals += answered
        self.sizes += [message_size(message) for message in answered]
        for position, message in enumerate(answered):  # the trace puts a response's usage where it was passed back
            self.usage.append(self._answer if position == 0 and message.get("role") == "assistant" else None)
        if answered:
            self._answer = None
        snapshot = list(self.originals)  # later calls append to the originals, never to this call's
        recorded = Recorded(list(self.usage), boundaries=[dict(b) for b in self.boundaries])
        prepared = Prepared(snapshot, list(self.sizes), ToolNames(snapshot), ResultBlocks(snapshot), overhead,
                            self.token_model, recorded=recorded)
        kept = self.kept
        history = History([], [], [], prepared, self.run) if kept is None else \
            History(kept.messages, kept.sizes, kept.origins, prepared, self.run)
        turns = self.turns
        for index, message in enumerate(answered, start):
            history = turns.take(history, message, self.sizes[index], index)
            turns.turn_taken_by(message)
        self.kept = history
        return history

    def answered(self, usage: dict | None, summarised: bool, tokens: int, acted: tuple) -> None:
        """After a call: its usage (kept for its response) and, when it summarised, a compaction of the
        session at the response, as the trace reader makes them."""
        self._answer = usage
        if summarised:
            self.boundaries.append({"index": len(self.originals), "trigger": "client", "pre_tokens": tokens,
                                    "acted": list(acted)})

    def keep(self, history: History) -> None:
        """What the next call starts from: the history sent, or the whole one for a request-only edit."""
        self.kept = history

    def _answered(self, message: Message) -> Message:
        """A user message that follows compact calls, with their answers added when the caller left them out:
        the client answers the compact tool itself, so the request stays valid."""
        if not self._compact_ids or message.get("role") != "user":
            return message
        answered = {str(block.get("tool_use_id")) for block in tool_results(message)}
        missing = [answer_compact_call({"id": use_id}) for use_id in sorted(self._compact_ids - answered)]
        if not missing:
            return message
        content = message["content"] if isinstance(message["content"], list) else \
            [{"type": "text", "text": message["content"]}]
        return {"role": "user", "content": [*missing, *content]}
