"""What the model no longer sees (docs/measures.md): blind references and artifact retention.

Both ask whether a piece of text is still in what a call sends: whole in a message or block the
strategy left untouched (the same object as the original's), or written again in text it changed or
made (a preview, a summary). Occurrences come from the TermIndex of the original conversation, so a
call costs a few lookups per term, not a pass over its history.
"""

import re
from dataclasses import dataclass
from typing import Protocol

from compaction.measures.terms import TermIndex, block_text, visible_text
from compaction.model.messages import FILE_INPUT_KEYS, Message

# written apart from the offline summariser's own rule, so the measure does not grade the summary by the
# summariser's own idea of a constraint
_CONSTRAINT = re.compile(r"\b(?:don't|do not|never|always|must|mustn't|only|avoid|without|keep)\b", re.IGNORECASE)
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")


def position_of(origins: list, origin: int) -> int | None:
    """Where the message of `origin` sits in a history, or None. Origins rise along a history apart
    from None (a message a strategy made), so this is a binary search that steps over those."""
    low, high = 0, len(origins)
    while low < high:
        middle = (low + high) // 2
        probe = middle
        while probe < high and origins[probe] is None:
            probe += 1
        if probe == high:
            high = middle
            continue
        if origins[probe] == origin:
            return probe
        if origins[probe] < origin:
            low = probe + 1
        else:
            high = middle
    return None


SHORT_HISTORY = 4_000  # up to this many messages, a call's origins are looked up in a dict built for it


class SentHistory(Protocol):
    """What a view reads of a call's history: a History, or an incremental replay's RunningHistory."""

    @property
    def messages(self) -> list[Message]: ...
    @property
    def origins(self) -> list[int | None]: ...
    @property
    def originals(self) -> list[Message]: ...


class SentView:
    """One call's history, asked whether a text is still in it."""

    def __init__(self, history: SentHistory):
        self.history = history
        self._made: list[str] | None = None
        self._positions: dict | None = None
        self._before: dict[int, tuple[set[int], set[int]]] = {}  # see _sent_before

    def position(self, origin: int) -> int | None:
        """Where the original message `origin` sits in this history, or None."""
        origins = self.history.origins
        if len(origins) > SHORT_HISTORY:  # a long history: a binary search, no pass over it
            return position_of(origins, origin)
        if self._positions is None:
            self._positions = {o: p for p, o in enumerate(origins) if o is not None}
        return self._positions.get(origin)

    def made_texts(self) -> list[str]:
        """Text of the messages the strategy wrote (summaries, markers), found at C speed."""
        if self._made is None:
            origins, found, start = self.history.origins, [], 0
            for _ in range(origins.count(None)):
                start = origins.index(None, start)
                found.append(visible_text(self.history.messages[start]))
                start += 1
            self._made = found
        return self._made

    def holds(self, text: str, places) -> bool:
        """Whether `text`, found at `places` (newest first) of the original, is still sent."""
        history = self.history
        messages, originals, position_of = history.messages, history.originals, self.position
        for origin, block in places:
            position = position_of(origin)
            # an untouched message holds it (the usual case, checked here without a call)
            if position is not None and (messages[position] is originals[origin]
                                         or self._at(text, origin, block, position)):
                return True
        return any(text in made for made in self.made_texts())

    def holds_term(self, index: TermIndex, term: str, before: int, count: int | None = None) -> bool:
        """Whether a term seen before message `before` (`count` times, if known) is still sent; walks
        whichever is shorter: the term's earlier occurrences, or this history's messages."""
        origins = self.history.origins
        if count is None:
            count = index.count_before(term, before)
        if count <= len(origins):
            places = index.occurrences.get(term, ())
            return self.holds(term, (places[i] for i in range(count - 1, -1, -1)))
        blocks_of = index.by_message(term)
        untouched, changed = self._sent_before(before)
        if not blocks_of.keys().isdisjoint(untouched):  # an untouched message that holds it is still sent
            return True
        for origin in blocks_of.keys() & changed:  # the changed messages that held it: is it still there?
            if any(self._at(term, origin, block) for block in blocks_of[origin]):
                return True
        return any(term in made for made in self.made_texts())

    def _sent_before(self, before: int) -> tuple[set[int], set[int]]:
        """(origins of the untouched messages, origins of the changed ones) among this history's messages
        from before message `before`; found once per view, then every term of the response is a set
        operation instead of a walk over the history."""
        found = self._before.get(before)
        if found is None:
            history = self.history
            messages, originals = history.messages, history.originals
            untouched, changed = set(), set()
            for position, origin in enumerate(history.origins):
                if origin is not None and origin < before:
                    if messages[position] is originals[origin]:
                        untouched.add(origin)
                    else:
                        changed.add(origin)
            found = self._before[before] = (untouched, changed)
        return found

    def _at(self, text: str, origin: int, block: int, position: int | None = None) -> bool:
        """Whether `text`, found in block `block` of original message `origin`, is still sent there."""
        history = self.history
        if position is None:
            position = self.position(origin)
            if position is None:
                return False
        sent, original = history.messages[position], history.originals[origin]
        if sent is original:
            return True
        content = sent.get("content")
        if block == -1 or not isinstance(content, list) or block >= len(content):
            return text in visible_text(sent)
        return content[block] is original["content"][block] or text in block_text(content[block])


def blind_references(index: TermIndex, response: int, sent: SentView) -> tuple[str, ...]:
    """The terms the response at `response` uses that appeared earlier but are no longer sent."""
    blind = [term for term, count in index.earlier_terms(response)
             if not sent.holds_term(index, term, response, count)]
    return tuple(sorted(blind))


@dataclass(frozen=True)
class Artifact:
    kind: str  # "file" | "error" | "constraint"
    text: str
    place: tuple[int, int]  # (message, block) where it first appeared


def artifacts(messages: list[dict], before: int) -> list[Artifact]:
    """Files read or written, errors seen and constraints the person stated, in messages before `before`.
    Only the blocks that can hold one are read: a call's input, an error result, the person's text."""
    found: dict[tuple[str, str], Artifact] = {}

    def add(kind: str, text: str, place: tuple[int, int]) -> None:
        text = text.strip()
        if len(text) >= 4:
            found.setdefault((kind, text), Artifact(kind, text, place))

    def person_said(text: str, place: tuple[int, int]) -> None:
        for sentence in _SENTENCE.findall(text):
            if _CONSTRAINT.search(sentence):
                add("constraint", sentence, place)

    for index, message in enumerate(messages[:before]):
        content, role = message.get("content"), message.get("role")
        if isinstance(content, str):
            if role == "user":
                person_said(content, (index, -1))
            continue
        for position, block in enumerate(content if isinstance(content, list) else ()):
            kind = block.get("type") if isinstance(block, dict) else None
            if role == "assistant" and kind == "tool_use" and isinstance(block.get("input"), dict):
                for key in FILE_INPUT_KEYS:
                    value = block["input"].get(key)
                    if isinstance(value, str):
                        add("file", value, (index, position))
            elif role == "user" and kind == "tool_result" and block.get("is_error") is True:
                first = next((line for line in block_text(block).splitlines() if line.strip()), "")
                add("error", first[:160], (index, position))
            elif role == "user" and kind == "text" and isinstance(block.get("text"), str):
                person_said(block["text"], (index, position))
    return list(found.values())


def artifact_retention(found: list[Artifact], index: TermIndex, sent: SentView) -> float | None:
    """Share of `found` still present verbatim in what is sent; None when there is none."""
    if not found:
        return None
    kept = 0
    for artifact in found:
        places = [artifact.place, *index.earlier(artifact.text, 10 ** 12)]
        places.sort(reverse=True)
        kept += sent.holds(artifact.text, places)
    return kept / len(found)
