"""The loss measures' term index as arrays (measures/terms.py's TermIndex, built once per conversation):
every place a term occurs, grouped by term in message order, and every (call, earlier term) the blind-
reference check asks about, with the place of the term's latest occurrence before the call's response.

Whether a term is still sent at a call is then whether one of its earlier places is: in a message the
history still holds, in a block no layer has rewritten, or rewritten into text that still holds it (a
preview). A cell gives each place the first call at which it is gone; the latest of them over a term's
places so far says whether it is still there.
"""

from dataclasses import dataclass, field

import numpy as np

from compaction.measures.meter import term_index
from compaction.model.history import History
from compaction.model.markers import PLACEHOLDER
from compaction.sweep.kernel.columns import Columns


@dataclass(frozen=True, eq=False)
class References:
    terms: list[str]
    place_message: np.ndarray  # original index of each place
    place_block: np.ndarray  # its block (-1: the message's content is a string)
    place_joined: np.ndarray  # the joined position of its message (-1: it never joins)
    place_rank: np.ndarray  # the rank of its block among the tool results (-1: not a tool result)
    place_term: np.ndarray  # the term it holds
    pair_call: np.ndarray  # per (call, term the call's response uses that occurred before it)
    pair_term: np.ndarray
    pair_latest: np.ndarray  # the place of the term's latest occurrence before the response
    in_placeholder: np.ndarray  # per term: the placeholder's own text holds it
    # (summary text, marker count, term) -> the summary or the snip marker holds the term: a sweep's cells
    # send the same summaries at many calls
    found_in: dict = field(default_factory=dict)


def references_of(prepared: History, columns: Columns, call_indices: list[int]) -> References:
    return prepared.shared_value(("kernel-references", len(call_indices)),
                                 lambda: _build(prepared, columns, call_indices))


def _rank_of(columns: Columns):
    """(original index, block) -> rank of that tool result."""
    joined = columns.joined
    return {(int(joined[k]), j): rank for rank, (k, j) in
            enumerate(zip(columns.block_message.tolist(), columns.block_position.tolist(), strict=True))}


def _build(prepared: History, columns: Columns, call_indices: list[int]) -> References:
    index = term_index(prepared)
    terms = list(index.occurrences)
    number = {term: t for t, term in enumerate(terms)}
    starts: list[int] = []
    messages: list[int] = []
    blocks: list[int] = []
    owners: list[int] = []
    for t, term in enumerate(terms):
        starts.append(len(messages))
        for message, block in index.occurrences[term]:
            messages.append(message)
            blocks.append(block)
            owners.append(t)
    joined_of = np.full(len(prepared.originals) + 1, -1, dtype=np.int64)
    joined_of[columns.joined] = np.arange(len(columns.joined), dtype=np.int64)
    place_message = np.asarray(messages, dtype=np.int64)
    ranks = _rank_of(columns)
    place_rank = np.asarray([ranks.get(key, -1) for key in zip(messages, blocks, strict=True)], dtype=np.int64)
    pair_call: list[int] = []
    pair_term: list[int] = []
    pair_latest: list[int] = []
    for call, response in enumerate(call_indices):
        for term, count in index.earlier_terms(response):
            t = number[term]
            pair_call.append(call)
            pair_term.append(t)
            pair_latest.append(starts[t] + count - 1)
    return References(terms, place_message, _ints(blocks),
                      joined_of[place_message] if len(messages) else _ints([]), place_rank, _ints(owners),
                      _ints(pair_call), _ints(pair_term), _ints(pair_latest),
                      np.asarray([term in PLACEHOLDER for term in terms], dtype=bool))


def _ints(values: list[int]) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)
