"""The words a model refers back to: file paths, URLs, error names and code names (docs/measures.md).

Terms are taken from text by regular expressions, deterministically and offline. `TermIndex` lists,
for each term found in a conversation, where it occurs: (message, block) pairs in order, the block
being -1 for a message whose content is a string. It is built once per prepared conversation.
"""

import re
import threading
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

# Candidate words are runs of letters, digits and ./~@+-_: (every other character, and a few common
# non-ASCII punctuation marks, becomes a space), cut at C speed with str.translate and str.split; each
# distinct word is then classified once (a cache). Far cheaper than a pattern with many alternatives
# tried at every position of the text.
_WORD_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./~@+-:")
_SEPARATORS = {code: " " for code in range(128) if chr(code) not in _WORD_CHARS}
_SEPARATORS.update({ord(mark): " " for mark in "\u201c\u201d\u2018\u2019\u2013\u2014\u2026\u00ab\u00bb\u00b7\u201a"})
_TERM = re.compile(
    r"(?:https?://\S+)"  # a URL
    r"|(?:~|\.{1,2})?/?(?:[\w.@+-]+/)+[\w.@+-]*\w"  # a path with at least one folder
    r"|[\w-]+\.(?:py|pyi|js|mjs|ts|tsx|jsx|json|toml|ya?ml|md|rst|txt|rs|go|java|kt|c|h|cc|cpp|hpp|rb|php"
    r"|sh|cfg|ini|lock|html|css|sql|proto|ipynb|csv|log)"  # a file name
    r"|[A-Z]\w*(?:Error|Exception|Warning)"  # an error name
    r"|[A-Za-z_][a-z0-9]*(?:_[A-Za-z0-9]+)+_*"  # snake_case, and __dunder__
    r"|[a-z]+(?:[A-Z][a-z0-9]+)+"  # camelCase
    r"|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+"  # PascalCase
)
MIN_LENGTH = 4  # shorter matches (a/b, is_x) are too common to mean anything


def _terms_of(word: str) -> tuple[str, ...]:
    """The terms a candidate word holds: itself, or, when it is not a URL, each part between colons
    (src/a.py:42:func -> src/a.py, func), with trailing punctuation taken off."""
    parts = (word,) if "://" in word else word.split(":")
    found = []
    for part in parts:
        part = part.rstrip(".-/")
        if len(part) >= MIN_LENGTH and _TERM.fullmatch(part) is not None:
            found.append(part)
    return tuple(found)


# Words classified so far, and those holding terms: a text's words are then sorted out with set
# operations at C speed, and only words never seen before are classified in Python.
_SEEN: set[str] = set()
_TERM_WORDS: dict[str, tuple[str, ...]] = {}
_TERM_SET: set[str] = set()  # the keys of _TERM_WORDS, as a set: an intersection walks the smaller side
_MAX_SEEN = 2_000_000  # forget everything past this many words (a long-lived server reading many files)


_LOCK = threading.Lock()  # the caches are shared by every thread (the app's sessions)


def terms_in(text: str) -> set[str]:
    words = set(text.translate(_SEPARATORS).split())
    with _LOCK:
        return _known_terms(words)


def _known_terms(words: set[str]) -> set[str]:
    new = words - _SEEN
    if new:
        if len(_SEEN) > _MAX_SEEN:
            _SEEN.clear()
            _TERM_WORDS.clear()
            _TERM_SET.clear()
            new = words
        for word in new:
            terms = _terms_of(word)
            if terms:
                _TERM_WORDS[word] = terms
                _TERM_SET.add(word)
        _SEEN.update(new)
    found: set[str] = set()
    for word in words & _TERM_SET:
        found.update(_TERM_WORDS[word])
    return found


def _strings(value: Any) -> Iterator[str]:
    """Every string inside a JSON value (a tool's input), keys left out."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def block_text(block: Any) -> str:
    """The text of one content block that a model reads: text, thinking, a call's input, a result."""
    if not isinstance(block, dict):
        return block if isinstance(block, str) else ""
    kind = block.get("type")
    if kind == "text":
        return str(block.get("text", ""))
    if kind == "thinking":
        return str(block.get("thinking", ""))
    if kind == "tool_use":
        return "\n".join(_strings(block.get("input")))
    if kind == "tool_result":
        content = block.get("content")
        if isinstance(content, list):
            return "\n".join(block_text(inner) for inner in content)
        return content if isinstance(content, str) else ""
    return ""


def message_blocks(message: dict) -> Iterator[tuple[int, str]]:
    """(block position, text) of a message; position -1 for string content."""
    content = message.get("content")
    if isinstance(content, str):
        yield -1, content
    elif isinstance(content, list):
        for position, block in enumerate(content):
            yield position, block_text(block)


def visible_text(message: dict) -> str:
    """Every text of a message the model reads (block_text of each block, joined)."""
    return "\n".join(text for _, text in message_blocks(message))


class TermIndex:
    """Where each term of a conversation occurs, in message order."""

    def __init__(self, messages: list[dict]):
        occurrences: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self.response_terms: dict[int, frozenset[str]] = {}
        by_text: dict[str, set[str]] = {}  # an output repeated in a session (a file read twice) is cut up once
        for index, message in enumerate(messages):
            said: set[str] = set()  # what a response uses: its text and its calls' inputs, not its thinking
            content = message.get("content")
            blocks = content if isinstance(content, list) else []  # message_blocks gives -1 for a string
            for position, text in message_blocks(message):
                found = by_text.get(text)
                if found is None:
                    found = by_text[text] = terms_in(text)
                place = (index, position)
                for term in found:
                    occurrences[term].append(place)
                if position == -1 or blocks[position].get("type") in ("text", "tool_use"):
                    said |= found
            if message.get("role") == "assistant":
                self.response_terms[index] = frozenset(said)
        self.occurrences = dict(occurrences)
        self._first = {term: places[0][0] for term, places in self.occurrences.items()}
        self._by_message: dict[str, dict[int, list[int]]] = {}
        self._earlier: dict[int, tuple[tuple[str, int], ...]] = {}

    def earlier_terms(self, response: int) -> tuple[tuple[str, int], ...]:
        """(term, occurrences before it) of each term the response at `response` uses that appeared before
        it: what the blind-reference check asks at every call, found once per conversation."""
        found = self._earlier.get(response)
        if found is None:
            found = self._earlier[response] = tuple(
                (term, count) for term in self.response_terms.get(response, ())
                if (count := self.count_before(term, response)))
        return found

    def first_seen(self, term: str) -> int | None:
        return self._first.get(term)

    def earlier(self, term: str, before: int) -> list[tuple[int, int]]:
        """Occurrences of `term` in messages before `before`, newest first."""
        places = self.occurrences.get(term, [])
        end = bisect_left(places, (before, -2))
        return places[end - 1::-1] if end else []

    def count_before(self, term: str, before: int) -> int:
        return bisect_left(self.occurrences.get(term, []), (before, -2))

    def by_message(self, term: str) -> dict[int, list[int]]:
        """The blocks of each message that hold `term` (built once per term)."""
        found = self._by_message.get(term)
        if found is None:
            found = {}
            for origin, block in self.occurrences.get(term, ()):
                found.setdefault(origin, []).append(block)
            self._by_message[term] = found
        return found
