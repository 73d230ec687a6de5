"""What a cell's calls no longer send, from when each message left its history and each result became a
placeholder (walk.py): blind references at every call, artifact retention at the last, and how much tool
output reached the model whole. The loop asks the same of each call's history (measures/loss.py,
replay/lookups.py new_outputs); here every place of the conversation gets the call it is gone from, and
each question is a comparison with the call."""

from dataclasses import dataclass

import numpy as np

from compaction.measures.terms import block_text
from compaction.sweep.kernel.columns import Columns
from compaction.sweep.kernel.persisted import Persisted, Placeholders
from compaction.sweep.kernel.references import References
from compaction.sweep.kernel.walk import Walk


@dataclass(frozen=True, eq=False)
class Gone:
    """Per joined message and per tool result of one cell: the call from which it is no longer sent."""

    message: np.ndarray  # the message is out of the history (snipped, summarised; C: never)
    result: np.ndarray  # the result is a placeholder (C: never)


def gone_of(walk: Walk, placeholders: Placeholders, calls: int) -> Gone:
    replaced = np.asarray(walk.replaced, dtype=np.int64)
    return Gone(np.asarray(walk.death, dtype=np.int64), np.where(placeholders.long, replaced, calls))


def kept_in_preview(references: References, persisted: Persisted, columns: Columns, originals: list) -> np.ndarray:
    """Per place: its text is still in the block once L3 has seen it (a place L3 did not touch: True)."""
    found = persisted.__dict__.setdefault("_kept", {}).get(id(references))
    if found is None:
        found = np.ones(len(references.place_rank), dtype=bool)
        ranks = references.place_rank
        saved = np.append(persisted.block_saved, False)  # rank -1 (not a tool result) reads the last
        for place in np.flatnonzero(saved[ranks]).tolist():
            rank = int(ranks[place])
            block = persisted.messages[int(columns.block_message[rank])]["content"][int(columns.block_position[rank])]
            found[place] = references.terms[int(references.place_term[place])] in block_text(block)
        persisted.__dict__["_kept"][id(references)] = found
    return found


def made_texts(walk: Walk, call: int) -> list[str]:
    summary, marker = walk.made[call]
    texts = [] if summary is None else [summary.content]
    return texts + [f"[snipped {marker} messages]"] if marker else texts


def blind_counts(walk: Walk, gone: Gone, references: References, kept: np.ndarray, terms: bool = False):
    """Per call, how many terms its response uses that appeared before it and are no longer sent (with
    `terms`: the sorted terms themselves)."""
    calls = len(walk.count)
    joined, ranks = references.place_joined, references.place_rank
    until = np.append(gone.message, -1)[joined]  # -1: a place in a message that never joins
    replaced = np.append(gone.result, calls)[ranks]  # a place outside any tool result is never replaced
    until = np.where(ranks >= 0, np.where(kept, np.minimum(until, replaced), -1), until)
    # the latest call at which any of a term's places so far is still sent: a running maximum per term,
    # each term's values lifted above every earlier term's so one pass serves them all
    lift = calls + 2
    running = np.maximum.accumulate(until + references.place_term * lift) if len(until) else until
    pair_call = references.pair_call
    held = running[references.pair_latest] - references.pair_term * lift > pair_call
    phrased = references.in_placeholder[references.pair_term]
    unheld = np.flatnonzero(~held | phrased)
    blind: list[list[str]] = [[] for _ in range(calls)] if terms else []
    counts = np.zeros(calls, dtype=np.int64)
    words, made, found_in = references.terms, walk.made, references.found_in
    for pair, call, term, is_held, is_phrased in zip(unheld.tolist(), pair_call[unheld].tolist(),
                                                     references.pair_term[unheld].tolist(), held[unheld].tolist(),
                                                     phrased[unheld].tolist(), strict=True):
        if is_held or (is_phrased and _held_by_placeholder(references, gone, kept, pair, call)):
            continue
        summary, marker = made[call]
        # the texts the layers made that this call sends (its summary, its snip marker) may hold the term
        key = (None if summary is None else summary.content, marker, term)
        inside = found_in.get(key)
        if inside is None:
            word = words[term]
            inside = found_in[key] = any(word in text for text in made_texts(walk, call))
        if inside:
            continue
        counts[call] += 1
        if terms:
            blind[call].append(words[term])
    return (counts, [tuple(sorted(found)) for found in blind]) if terms else counts


def _held_by_placeholder(references: References, gone: Gone, kept: np.ndarray, pair: int, call: int) -> bool:
    """A term the placeholder's text holds: still sent in any of its earlier places, placeholders too."""
    latest = int(references.pair_latest[pair])
    term = int(references.pair_term[pair])
    place = latest
    while place >= 0 and int(references.place_term[place]) == term:
        k, rank = int(references.place_joined[place]), int(references.place_rank[place])
        if k >= 0 and gone.message[k] > call and (rank < 0 or (gone.result[rank] <= call)
                                                  or (gone.result[rank] > call and kept[place])):
            return True
        place -= 1
    return False


def whole_output(walk: Walk, gone: Gone, columns: Columns, persisted: Persisted) -> int:
    """Characters of tool output that reached the model whole at the first call after it came (the
    loop's tool_output_whole_chars)."""
    calls = len(walk.count)
    first = columns.join_call[columns.block_message]
    whole = (first < calls) & (gone.message[columns.block_message] > first) & (gone.result > first) \
        & ~persisted.block_saved
    return int(columns.block_chars[whole].sum())
