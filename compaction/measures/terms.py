"""The words a model refers back to: file paths, URLs, error names and code names (docs/measures.md).

Terms are taken from text by regular expressions, deterministically and offline. `TermIndex` lists,
for each term found in a conversation, where it occurs: (message, block) pairs in order, the block
being -1 for a message whose content is a string. It is built once per prepared conversation.
"""

import re
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

# Candidate words: runs of the characters terms are made of, found at C speed; each distinct word is then
# classified once (a cache), which is far cheaper than one pattern with many alternatives at every position.
_WORD = re.compile(r"https?://[^\s\"'<>)\]}]+|[\w./~@+-]+")  # a colon only in a URL: src/a.py:42: ends at .py
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


@lru_cache(maxsize=500_000)
def _as_term(word: str) -> str | None:
    """The term a candidate word is, or None (trailing punctuation taken off first)."""
    word = word.rstrip(".:-/")
    if len(word) < MIN_LENGTH or _TERM.fullmatch(word) is None:
        return None
    return word


def terms_in(text: str) -> set[str]:
    found = set()
    for word in set(_WORD.findall(text)):
        term = _as_term(word)
        if term is not None:
            found.add(term)
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


def message_text(message: dict) -> str:
    return "\n".join(text for _, text in message_blocks(message))


class TermIndex:
    """Where each term of a conversation occurs, in message order."""

    def __init__(self, messages: list[dict]):
        occurrences: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self.response_terms: dict[int, frozenset[str]] = {}
        for index, message in enumerate(messages):
            said: set[str] = set()  # what a response uses: its text and its calls' inputs, not its thinking
            content = message.get("content")
            for position, text in message_blocks(message):
                found = terms_in(text)
                for term in found:
                    occurrences[term].append((index, position))
                if position == -1 or content[position].get("type") in ("text", "tool_use"):
                    said |= found
            if message.get("role") == "assistant":
                self.response_terms[index] = frozenset(said)
        self.occurrences = dict(occurrences)
        self._first = {term: places[0][0] for term, places in self.occurrences.items()}
        self._by_message: dict[str, dict[int, list[int]]] = {}

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
