"""Cache reads and writes per call, and what calls cost: small histories worked out by hand.

A user message {"role": "user", "content": "x" * n} prints as "{'role': 'user', 'content': '...'}":
31 characters plus n. Shared messages count their size plus 2 for the ", " after each. The default
token model is characters / 4, rounded up."""

import dataclasses

from compaction.measures.cache import cache_use, shared_prefix_chars
from compaction.measures.cost import Prices
from compaction.model.history import History, prepare
from compaction.model.tokens import DEFAULT_TOKEN_MODEL


def _user(n: int, letter: str = "x") -> dict:
    return {"role": "user", "content": letter * n}


M = [_user(100, letter) for letter in "abcde"]  # 131 characters each


def _history(messages, overhead: int = 0):
    prepared = prepare(M)
    origins = [M.index(m) if m in M else None for m in messages]
    facts = dataclasses.replace(prepared.prepared, overhead=overhead)  # as a system prompt of that size gives
    return History(list(messages), [len(str(m)) for m in messages], origins, facts)


def test_a_prompt_that_extends_the_previous_one_reads_all_of_it():
    previous, sent = _history(M[:3]), _history(M)
    assert shared_prefix_chars(previous, sent) == (3 * 131 + 3 * 2, False)  # 399, nothing broken
    use = cache_use(DEFAULT_TOKEN_MODEL, previous, sent, 167)  # 5 messages: 655 + 8 + 2 = 665 chars -> 167
    assert (use.read, use.write, use.broken) == (100, 67, False)  # ceil(399 / 4) = 100


def test_a_rewritten_message_breaks_the_cache_from_there_on():
    placeholder = _user(10, "p")
    previous, sent = _history(M[:3]), _history([M[0], placeholder, M[2], M[3]])
    assert shared_prefix_chars(previous, sent) == (133, True)
    use = cache_use(DEFAULT_TOKEN_MODEL, previous, sent, 100)
    assert (use.read, use.write, use.broken) == (34, 66, True)  # ceil(133 / 4) = 34


def test_blocks_of_a_changed_message_are_shared_up_to_the_first_change():
    first = {"type": "text", "text": "y" * 40}  # prints as "{'type': 'text', 'text': ''}": 28 + 40 characters
    old = {"role": "user", "content": [first, {"type": "text", "text": "old"}]}
    new = {"role": "user", "content": [first, {"type": "text", "text": "new"}]}
    prepared = prepare([old])
    previous = prepared.derive([old], [len(str(old))], [0])
    sent = prepared.derive([new], [len(str(new))], [None])
    assert len(str(first)) == 68
    assert shared_prefix_chars(previous, sent) == (70, True)


def test_the_system_prompt_is_part_of_the_prefix():
    previous, sent = _history(M[:3], overhead=401), _history(M, overhead=401)
    assert cache_use(DEFAULT_TOKEN_MODEL, previous, sent, 300).read == 200  # ceil((401 + 399) / 4)


def test_the_first_call_and_a_call_after_five_idle_minutes_write_everything():
    sent = _history(M)
    assert cache_use(DEFAULT_TOKEN_MODEL, None, sent, 167).write == 167
    late = cache_use(DEFAULT_TOKEN_MODEL, _history(M[:3]), sent, 167, "2025-01-01T10:00:00Z", "2025-01-01T10:06:00Z")
    assert (late.read, late.write, late.broken) == (0, 167, False)
    soon = cache_use(DEFAULT_TOKEN_MODEL, _history(M[:3]), sent, 167, "2025-01-01T10:00:00Z", "2025-01-01T10:04:59Z")
    assert soon.read == 100


def test_prices_with_and_without_the_cache():
    prices = Prices()  # input $3, output $15, write 1.25 x input, read 0.1 x input, per million tokens
    # 1,000 read, 2,000 written, 100 output: 3 x (0.1 x 1000 + 1.25 x 2000) + 15 x 100 = 9,300 per million
    assert round(prices.cached(read=1000, write=2000, uncached=0, output=100), 10) == 0.0093
    # the same 3,000 input tokens uncached: 3 x 3000 + 15 x 100 = 10,500 per million
    assert round(prices.plain(3000, 100), 10) == 0.0105
    assert round(Prices(input=1, output=5, cache_write=2, cache_read=0.5).cached(10, 10, 10, 10), 10) == 0.000085
