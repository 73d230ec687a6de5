"""What a compaction lost that the agent had to fetch again: each name (a file, a call's request, an error)
that was in the part the compaction replaced, is absent from everything it carried on, and that the agent
read or asked for again after it, with what the fetch weighed and cost.

- A file: a tool call before the compaction named it (its path in one of the file inputs, FILE_INPUT_KEYS)
  and its result was no error; after the compaction a tool call names it again. Absent means neither its
  path nor its file name appears in what was carried on (the summary, the files attached again, the
  messages kept): a summary that names the file at all counts as keeping it.
- A request: a tool call that names no file (a shell command, a search pattern, a URL) made again with the
  very same input, whose request text the carried text does not hold.
- An error: a tool result marked as an error whose first line the carried text does not hold, met again.
Only the first fetch after the compaction counts, and only before the log's next compaction. Its tokens are
its result's, through the conversation's token model; its cost is those tokens written to the prompt cache
once (the call after the fetch sends them new), at the price of the model that asked for them.
"""

import json
import posixpath
from dataclasses import dataclass
from typing import Any

from compaction.importers.fields import object_at
from compaction.measures.cost import Prices
from compaction.measures.prices import cache_writes, price_for
from compaction.measures.terms import block_text
from compaction.model.history import History
from compaction.model.messages import FILE_INPUT_KEYS, blocks

REQUEST_KEYS = ("command", "cmd", "pattern", "query", "url", "prompt")  # what names a call that names no file
SHORTEST_ERROR = 12  # an error line shorter than this ("Error", "Exit code 1") names nothing in particular


@dataclass(frozen=True)
class Reread:
    kind: str  # "file" | "request" | "error"
    name: str  # the path, the request text, the error's first line
    first_index: int  # the message that first brought it in before the compaction
    again_index: int  # the message that fetched it again after
    tool_before: str
    tool_again: str
    tokens: int  # what the fetch's result weighed
    cost_usd: float

    def as_dict(self) -> dict:
        return {"kind": self.kind, "name": self.name, "first_index": self.first_index,
                "again_index": self.again_index, "tool_before": self.tool_before, "tool_again": self.tool_again,
                "tokens": self.tokens, "cost_usd": round(self.cost_usd, 6)}


def _request(given: dict) -> str:
    for key in REQUEST_KEYS:
        value = given.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
        if isinstance(value, list) and value and all(isinstance(part, str) for part in value):
            return " ".join(value)
    return json.dumps(given, sort_keys=True, ensure_ascii=False)


def names_of(use: dict) -> list[tuple[str, str]]:
    """(kind, name) of what one tool call asks for: its files, else its request."""
    given = object_at(use, "input")
    files = [value.strip() for key in FILE_INPUT_KEYS if isinstance(value := given.get(key), str) and value.strip()]
    return [("file", path) for path in files] if files else [("request", f"{use.get('name', '?')}: {_request(given)}")]


def _error_line(block: dict) -> str | None:
    if block.get("is_error") is not True:
        return None
    line = next((text.strip() for text in block_text(block).splitlines() if text.strip()), "")
    return line if len(line) >= SHORTEST_ERROR else None


def _results(messages: list, start: int, end: int) -> dict[str, tuple[int, dict]]:
    """tool_use id -> (message index, its tool_result block), over messages[start:end]."""
    found: dict[str, tuple[int, dict]] = {}
    for index in range(start, end):
        if messages[index].get("role") == "user":
            for block in blocks(messages[index]):
                if block.get("type") == "tool_result" and isinstance(block.get("tool_use_id"), str):
                    found[block["tool_use_id"]] = (index, block)
    return found


def _uses(messages: list, start: int, end: int):
    for index in range(start, end):
        if messages[index].get("role") == "assistant":
            for block in blocks(messages[index]):
                if block.get("type") == "tool_use":
                    yield index, block


def absent(kind: str, name: str, carried: str) -> bool:
    """Whether what was carried on does not hold `name` (for a file: neither its path nor its file name)."""
    if kind == "file":
        base = posixpath.basename(name.replace("\\", "/").rstrip("/"))
        return name not in carried and (not base or base not in carried)
    return (name.split(": ", 1)[-1] if kind == "request" else name) not in carried


def fetch_cost(tokens: int, usage: Any, fallback: Prices) -> float:
    """US$ of `tokens` written to the prompt cache once, at the price (and the cache lifetime) of the call
    whose usage is `usage`."""
    usage = usage if isinstance(usage, dict) else {}
    one_hour = cache_writes(usage)[1] > 0
    row = price_for(usage.get("model") if isinstance(usage.get("model"), str) else None)
    parts = (0, 0, tokens, 0, 0) if one_hour else (0, tokens, 0, 0, 0)
    return row.cost(*parts) if row is not None else fallback.cost(*parts)


def rereads(history: History, start: int, index: int, end: int, carried: str, fallback: Prices) -> list[Reread]:
    """What was in messages[start:index] (the part the compaction at `index` replaced), is absent from
    `carried`, and was fetched again in messages[index:end] (before the next compaction)."""
    messages, usage = history.originals, history.recorded.usage
    before_results = _results(messages, start, index)
    seen: dict[tuple[str, str], tuple[int, str]] = {}
    for at, use in _uses(messages, start, index):
        result = before_results.get(str(use.get("id")))
        if result is None or result[1].get("is_error") is True:
            continue
        for key in names_of(use):
            seen.setdefault(key, (at, str(use.get("name", "?"))))
    for at, block in before_results.values():
        if (line := _error_line(block)) is not None:
            seen.setdefault(("error", line), (at, history.tool_name(block.get("tool_use_id"), at)))
    lost = {key: value for key, value in seen.items() if absent(*key, carried)}
    after_results = _results(messages, index, end)
    found: dict[tuple[str, str], Reread] = {}

    def add(key: tuple[str, str], at: int, tool: str, result: dict | None, asked_at: int) -> None:
        if key in lost and key not in found:
            tokens = history.token_model.content_tokens(len(str(result.get("content", "")))) if result else 0
            ask = usage[asked_at] if asked_at < len(usage) else None
            first, tool_before = lost[key]
            found[key] = Reread(key[0], key[1], first, at, tool_before, tool, tokens, fetch_cost(tokens, ask, fallback))

    for at, use in _uses(messages, index, end):
        result = after_results.get(str(use.get("id")))
        for key in names_of(use):
            add(key, at, str(use.get("name", "?")), result[1] if result else None, at)
    for at, block in sorted(after_results.values(), key=lambda pair: pair[0]):
        if (line := _error_line(block)) is not None:
            add(("error", line), at, history.tool_name(block.get("tool_use_id"), at), block, max(at - 1, 0))
    return sorted(found.values(), key=lambda reread: (reread.again_index, reread.kind, reread.name))
