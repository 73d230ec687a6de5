"""Prompt caching, as Anthropic prices it and coding agents use it (docs/measures.md).

A request reads from the cache the longest prefix identical to a cached one; an agent places its
breakpoints so that each call can read everything the previous call sent. So, per call: the longest
prefix identical to the previous call's prompt (system prompt and tools, then the messages block by
block) is read, the rest is written (5-minute cache: a call more than five minutes after the previous
one reads nothing; the 1-hour lifetime, for a log whose writes are 1-hour ones, after an hour). The first
call writes everything. A layer that rewrites an old message (a
placeholder, a snip, a summary) shortens that prefix: every later token becomes a write again.
"""

from dataclasses import dataclass
from datetime import datetime

from compaction.model.history import History
from compaction.model.sizes import list_chars
from compaction.model.tokens import TokenModel

CACHE_TTL_S = 5 * 60


@dataclass(frozen=True)
class CacheUse:
    read: int  # tokens read from the cache
    write: int  # tokens written to it
    broken: bool  # the prompt no longer starts with the whole previous prompt: something in it changed


def _first_difference(previous: list, sent: list) -> int:
    """How many leading messages the two lists share. List comparison checks identity before value, so
    the usual case (the same message objects, then new ones) runs at C speed; a difference is then
    narrowed down by halves, comparing slices."""
    count = min(len(previous), len(sent))
    if (previous if count == len(previous) else previous[:count]) == sent[:count]:
        return count
    low, high = 0, count  # previous[:low] == sent[:low]; they differ somewhere before `high`
    while high - low > 1:
        middle = (low + high) // 2
        if previous[low:middle] == sent[low:middle]:
            low = middle
        else:
            high = middle
    return low


def shared_block_chars(previous: dict | None, sent: dict) -> int:
    """Characters of the leading blocks two versions of a message share (block by block); none when
    there is no previous version."""
    if previous is None:
        return 0
    old, new = previous.get("content"), sent.get("content")
    if not isinstance(old, list) or not isinstance(new, list):
        return 0
    shared = 0
    for before, after in zip(old, new, strict=False):
        if before is not after and before != after:
            break
        shared += len(str(after)) + 2
    return shared


def shared_prefix_chars(previous: History, sent: History) -> tuple[int, bool]:
    """(characters of `sent`'s messages identical to the start of `previous`, whether `sent` starts
    with all of `previous`)."""
    count = _first_difference(previous.messages, sent.messages)
    chars = sum(sent.sizes[:count]) + 2 * count
    whole = count == len(previous.messages)
    if not whole and count < len(sent.messages):
        chars += shared_block_chars(previous.messages[count], sent.messages[count])
    return chars, not whole


def expired(previous_time: str | None, time: str | None, ttl_s: int = CACHE_TTL_S) -> bool:
    """Whether a cache entry written at `previous_time` is gone at `time` (`ttl_s`: its lifetime)."""
    if not previous_time or not time:
        return False
    try:
        gap = datetime.fromisoformat(time.replace("Z", "+00:00")) - datetime.fromisoformat(
            previous_time.replace("Z", "+00:00"))
    except ValueError:
        return False
    return gap.total_seconds() > ttl_s


def cache_use(model: TokenModel, previous: History | None, sent: History, context_tokens: int,
              previous_time: str | None = None, time: str | None = None, ttl_s: int = CACHE_TTL_S,
              previous_tokens: int | None = None) -> CacheUse:
    """Tokens of this call read from and written to the cache. When `sent` starts with all of `previous`,
    the whole previous prompt is read: `previous_tokens` (what that call carried, recorded where the log
    knows it) rather than an estimate of it."""
    if previous is None or expired(previous_time, time, ttl_s):
        return CacheUse(0, context_tokens, False)
    return cache_reads(model, sent.overhead, shared_prefix_chars(previous, sent), context_tokens, previous_tokens)


def cache_reads(model: TokenModel, overhead: int, prefix: tuple[int, bool], context_tokens: int,
                previous_tokens: int | None) -> CacheUse:
    """Reads and writes of a call whose cache holds the previous prompt: `prefix` is (characters of the
    messages shared with it, whether the prompt no longer starts with all of it); see cache_use."""
    prefix_chars, broken = prefix
    whole = previous_tokens if previous_tokens is not None and not broken else None
    read = min(whole if whole is not None else model.tokens(overhead + prefix_chars), context_tokens)
    return CacheUse(read, context_tokens - read, broken)


def modelled_cache_reads(model: TokenModel, sizes: list[int], overhead_chars: int, usage: list,
                         boundaries: list[dict], times: list, ttl_s: int = CACHE_TTL_S) -> tuple[int, int] | None:
    """Check of the cache model against a log: (tokens it says the agent read from the cache, tokens the
    log recorded as read), over the calls that recorded usage, applied to what the agent actually sent
    (its whole history, started afresh at each of its own compactions). None without usage."""
    starts = sorted(b["index"] for b in boundaries if isinstance(b.get("index"), int))
    modelled = recorded = 0
    previous_chars = previous_time = previous_start = None
    message_chars = 0  # characters of the messages since the latest compaction
    start = 0
    for index, entry in enumerate(usage):
        while starts and starts[0] <= index:
            start, message_chars = starts.pop(0), 0
        if entry is not None:
            chars = overhead_chars + list_chars(message_chars, index - start)
            time = times[index] if index < len(times) else None
            if previous_chars is not None and not expired(previous_time, time, ttl_s):
                shared = previous_chars if previous_start == start else overhead_chars
                modelled += model.tokens(shared)
            recorded += entry["cache_read_input_tokens"]
            previous_chars, previous_time, previous_start = chars, time, start
        message_chars += sizes[index]
    return (modelled, recorded) if recorded or modelled else None
