"""What fills a call's context, by kind: the characters of each kind in a history, measured as the
replay measures sizes (len(str(message)): every character of a message belongs to one kind).

The kinds: the system prompt and tools, the person's text, the agent's replies, its thinking, its tool
calls (their inputs), the tool results (by the tool that produced them), images (the person's or a tool's),
the summaries compaction wrote, the placeholders it left (L2's, masks, cleared results, snip markers, the
agents' own) and the previews of outputs persisted to disk; and what the call carried that the log does
not hold (no characters: composition_tokens.py finds it). An image weighs the characters of its base64
data, as the token model counts it (the API bills about width x height / 750 tokens). A message's own frame (its role, braces, the list's separators) goes to its
largest block's kind. composition_tokens.py turns the characters into the call's tokens.

Cheap along a replay: the original messages are measured once per conversation (a running sum over
them, so a run of untouched originals costs one subtraction per kind), a message a layer made once by
identity in a `made` table the caller keeps for one replay (consecutive calls share most of them; the
composer itself is kept with the conversation, so it holds no message of a replay).
"""

from array import array
from collections import Counter
from itertools import compress, count
from operator import is_not

from compaction.model.history import History
from compaction.model.markers import PERSISTED_PREFIX, is_placeholder_text, is_summary, summary_prefixes
from compaction.model.messages import Message, content_text
from compaction.model.prepared import Prepared

SYSTEM, PERSON, REPLIES, THINKING = "system_and_tools", "person", "replies", "thinking"
TOOL_CALLS, TOOL_RESULTS, IMAGES, SUMMARIES, PLACEHOLDERS, PREVIEWS, NOT_IN_LOG = (
    "tool_calls", "tool_results", "images", "summaries", "placeholders", "previews", "not_in_log")
KINDS = (SYSTEM, PERSON, REPLIES, THINKING, TOOL_CALLS, TOOL_RESULTS, IMAGES, SUMMARIES, PLACEHOLDERS, PREVIEWS,
         NOT_IN_LOG)
KIND_TITLES = {SYSTEM: "system prompt and tools", PERSON: "the person's text", REPLIES: "the agent's replies",
               THINKING: "thinking", TOOL_CALLS: "tool calls", TOOL_RESULTS: "tool results", IMAGES: "images",
               SUMMARIES: "summaries", PLACEHOLDERS: "placeholders", PREVIEWS: "persisted-output previews",
               NOT_IN_LOG: "not in the log"}
SHORT_RUN = 3  # runs of originals up to this long are added message by message, not from the running sums
LIST_FRAME = 2  # a message's share of the list's brackets and ", " separators (sizes.list_chars)

# A part of a message: (kind, tool, characters); tool is the producing tool's name for a tool result.
Key = tuple[str, str | None]
Parts = tuple[tuple[Key, int], ...]


def _text_kind(text: str, role: str) -> str:
    if is_placeholder_text(text):
        return PLACEHOLDERS
    if role == "user" and text.startswith(summary_prefixes()):
        return SUMMARIES
    return PERSON if role == "user" else REPLIES


def _result_parts(block: dict, tool_of) -> list[tuple[Key, int]]:
    """A tool result's characters: its images apart, the rest under the result's own kind."""
    content = block.get("content", "")
    text = content_text(content).lstrip()
    if is_placeholder_text(text):
        key: Key = (PLACEHOLDERS, None)
    elif text.startswith(PERSISTED_PREFIX):
        key = PREVIEWS, None
    else:
        key = TOOL_RESULTS, tool_of(block.get("tool_use_id"))
    chars = len(str(block))
    images = sum(len(str(part)) for part in content if isinstance(part, dict) and part.get("type") == "image") \
        if isinstance(content, list) else 0
    return [(key, chars - images), ((IMAGES, None), images)] if images else [(key, chars)]


def _block_key(block, role: str) -> Key:
    if not isinstance(block, dict):
        return (PERSON if role == "user" else REPLIES), None
    kind = block.get("type")
    if kind == "image":
        return IMAGES, None
    if kind in ("thinking", "redacted_thinking"):
        return THINKING, None
    if kind in ("tool_use", "server_tool_use"):
        return TOOL_CALLS, None
    if kind == "text" and isinstance(block.get("text"), str):
        return _text_kind(block["text"], role), None
    return (PERSON if role == "user" else REPLIES), None  # documents, blocks of other types


def message_parts(message: Message, size: int, tool_of, summary: bool = False) -> Parts:
    """The characters of each kind in `message`, summing to `size` (its len(str(...))) plus LIST_FRAME.
    `tool_of(tool_use_id)` names a result's tool; `summary`: the log marks it as the agent's summary."""
    role = str(message.get("role") or "")
    content = message.get("content")
    if summary or is_summary(message):
        return (((SUMMARIES, None), size + LIST_FRAME),)
    if not isinstance(content, list):
        return (((_text_kind(content, role) if isinstance(content, str) else PERSON
                  if role == "user" else REPLIES, None), size + LIST_FRAME),)
    totals: dict[Key, int] = {}
    largest, largest_chars = None, -1
    for block in content:
        found = _result_parts(block, tool_of) if isinstance(block, dict) and block.get("type") == "tool_result" \
            else [(_block_key(block, role), len(str(block)))]
        for key, chars in found:
            totals[key] = totals.get(key, 0) + chars
            if chars > largest_chars:
                largest, largest_chars = key, chars
    frame = size + LIST_FRAME - sum(totals.values())  # the role, the braces, the separators
    if largest is None:
        largest = (PERSON if role == "user" else REPLIES), None
    totals[largest] = totals.get(largest, 0) + frame
    return tuple(totals.items())


class Composer:
    """Characters by kind of any history over one prepared conversation (use `composer_of`)."""

    def __init__(self, prepared: Prepared):
        self.prepared = prepared
        summaries = prepared.recorded.agent_summaries
        names = prepared.tool_names
        self.parts: list[Parts] = [
            message_parts(message, size, lambda use_id, origin=origin: names.name(use_id, origin), origin in summaries)
            for origin, (message, size) in enumerate(zip(prepared.messages, prepared.sizes, strict=True))]
        # running[key][i]: characters of `key` in the originals before i
        keys = sorted({key for parts in self.parts for key, _ in parts}, key=str)
        self.running: dict[Key, array] = {key: array("q", [0]) for key in keys}
        for parts in self.parts:
            found = dict(parts)
            for key, column in self.running.items():
                column.append(column[-1] + found.get(key, 0))
        self._summary_parts = [(i, self.parts[i]) for i in sorted(summaries) if i < len(self.parts)]
        self.starts = sorted(b["index"] for b in prepared.recorded.boundaries if isinstance(b, dict)
                             and isinstance(b.get("index"), int) and not isinstance(b["index"], bool))

    @staticmethod
    def _parts_of_made(history: History, position: int, made: dict) -> Parts:
        """Parts of a message a layer made: known by identity, or as an equal message made from the same
        original at an earlier call (a strategy that rebuilds its placeholders at every call)."""
        message = history.messages[position]
        known = made.get(id(message))
        if known is not None and known[0] is message:
            return known[1]
        origin, size = history.origins[position], history.sizes[position]
        known = made.get((origin, size))
        if known is not None and known[0] == message:
            return known[1]
        parts = message_parts(message, size, lambda use_id: history.tool_name(use_id, origin))
        # the message is held, so its id is not reused while the entry lives
        made[id(message)] = made[origin, size] = (message, parts)
        return parts

    def _add_originals(self, totals: Counter, start: int, end: int) -> None:
        if end - start <= SHORT_RUN:  # a message or two: their own parts are fewer than the kinds
            for parts in self.parts[start:end]:
                for key, chars in parts:
                    totals[key] += chars
            return
        for key, column in self.running.items():
            chars = column[end] - column[start]
            if chars:
                totals[key] += chars

    def chars(self, history: History, made: dict | None = None) -> Counter:
        """Characters by (kind, tool) of what a call sending `history` carries: its messages, and the system
        prompt and tools the conversation holds. `made`: the caller's table of the messages layers made,
        kept over the calls of one replay (see _parts_of_made)."""
        totals = self._messages_chars(history, 0, {} if made is None else made)
        if self.prepared.overhead:
            totals[SYSTEM, None] += self.prepared.overhead
        return totals

    def chars_along(self, histories: list[History]) -> list[Counter]:
        """`chars` of each history of a replay, in order. Each call's history shares its first messages
        with the previous call's (the same objects): only what follows the first difference is measured."""
        made: dict = {}
        found: list[Counter] = []
        previous, totals = None, Counter[Key]()
        for history in histories:
            start = 0
            if previous is not None:
                messages, before = history.messages, previous.messages
                shared = min(len(messages), len(before))
                start = next(compress(count(), map(is_not, messages[:shared], before[:shared])), shared)
                totals = Counter(totals)
                totals.subtract(self._messages_chars(previous, start, made))
            totals.update(self._messages_chars(history, start, made))
            previous = history
            whole = Counter({key: chars for key, chars in totals.items() if chars})
            if self.prepared.overhead:
                whole[SYSTEM, None] += self.prepared.overhead
            found.append(whole)
        return found

    def _messages_chars(self, history: History, start: int, made: dict) -> Counter:
        """Characters by (kind, tool) of the messages of `history` from position `start` on."""
        totals: Counter = Counter()
        messages, origins, originals = history.messages, history.origins, self.prepared.messages
        position, length = start, len(messages)
        while position < length:
            origin = origins[position]
            if origin is not None and messages[position] is originals[origin]:
                if position + 1 == length or origin + 1 == len(originals) \
                        or messages[position + 1] is not originals[origin + 1]:
                    for key, chars in self.parts[origin]:  # an original alone (between placeholders)
                        totals[key] += chars
                    position += 1
                    continue
                # a run of untouched originals: how far it goes, found at C speed
                span = min(length - position, len(originals) - origin)
                run = next(compress(count(), map(is_not, messages[position:position + span],
                                                 originals[origin:origin + span])), span)
                self._add_originals(totals, origin, origin + run)
                position += run
                continue
            for key, chars in self._parts_of_made(history, position, made):
                totals[key] += chars
            position += 1
        return totals

    def sent_chars(self, index: int) -> tuple[Counter, int]:
        """(characters by (kind, tool), messages) of what the log sent at the call answered by message
        `index`: the messages from its latest compaction before that call on (its summary first), the
        agent's other summaries left out, as the as-recorded strategy keeps them; and the system prompt
        and tools."""
        index = min(index, len(self.parts))
        latest = max((start for start in self.starts if start <= index), default=0)
        totals: Counter = Counter()
        if self.prepared.overhead:
            totals[SYSTEM, None] += self.prepared.overhead
        self._add_originals(totals, latest, index)
        count = index - latest
        for origin, parts in self._summary_parts:
            if latest < origin < index:
                count -= 1
                for key, chars in parts:
                    totals[key] -= chars
        return totals, count

    def uncompacted_chars(self, index: int) -> Counter:
        """Characters by (kind, tool) of the call answered by message `index` had nothing been compacted:
        every message before it but the agent's own summaries, and the system prompt and tools."""
        totals: Counter = Counter()
        if self.prepared.overhead:
            totals[SYSTEM, None] += self.prepared.overhead
        self._add_originals(totals, 0, min(index, len(self.parts)))
        for origin, parts in self._summary_parts:
            if origin >= index:
                break
            for key, chars in parts:
                totals[key] -= chars
        return totals


def composer_of(history: History) -> Composer:
    """The composer of `history`'s conversation, made once and kept with it."""
    prepared = history.prepared
    return prepared.index("composer", lambda: Composer(prepared))
