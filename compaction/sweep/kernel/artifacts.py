"""Artifact retention in a cell, all of a conversation's artifacts at once: every place each artifact's
text occurs (where it first appeared and every earlier occurrence of the term index, as
measures/loss.py artifact_retention looks for it), worked out once per conversation as arrays, and per
cell a comparison of each place with when its message left the history and its result became a
placeholder (loss.Gone)."""

from dataclasses import dataclass

import numpy as np

from compaction.measures.meter import conversation_artifacts, term_index
from compaction.measures.terms import block_text
from compaction.model.history import History
from compaction.model.markers import PLACEHOLDER
from compaction.sweep.kernel.columns import Columns
from compaction.sweep.kernel.persisted import Persisted


@dataclass(frozen=True, eq=False)
class ArtifactPlaces:
    texts: list[str]  # each artifact's text
    owner: np.ndarray  # per place: its artifact
    joined: np.ndarray  # per place: the joined position of its message (-1: it never joins)
    rank: np.ndarray  # per place: the rank of its tool_result block (-1: not one)
    block: list[int]  # per place: its block in the message
    in_placeholder: np.ndarray  # per place: the placeholder's own text holds its artifact's text


def artifact_places(prepared: History, columns: Columns, last_call: int) -> ArtifactPlaces:
    """The places of the artifacts before the last call's response (original index `last_call`)."""
    return prepared.shared_value(("kernel-artifacts", last_call), lambda: _build(prepared, columns, last_call))


def _build(prepared: History, columns: Columns, last_call: int) -> ArtifactPlaces:
    found = conversation_artifacts(prepared, last_call)
    index = term_index(prepared)
    joined_of = {origin: k for k, origin in enumerate(columns.joined.tolist())}
    joined = columns.joined.tolist()
    ranks = {(joined[k], j): r for r, (k, j) in
             enumerate(zip(columns.block_message.tolist(), columns.block_position.tolist(), strict=True))}
    owner, positions, place_ranks, blocks, held = [], [], [], [], []
    for number, artifact in enumerate(found):
        inside = artifact.text in PLACEHOLDER
        for origin, block in [artifact.place, *index.earlier(artifact.text, 10 ** 12)]:
            owner.append(number)
            positions.append(joined_of.get(origin, -1))
            place_ranks.append(ranks.get((origin, block), -1))
            blocks.append(block)
            held.append(inside)
    return ArtifactPlaces([artifact.text for artifact in found], _ints(owner), _ints(positions), _ints(place_ranks),
                          blocks, np.asarray(held, dtype=bool))


def _in_preview(places: ArtifactPlaces, persisted: Persisted) -> np.ndarray:
    """Per place: its result was saved by L3 and the preview left still holds the text (once per variant)."""
    kept = persisted.__dict__.setdefault("_artifacts_kept", {})
    found = kept.get(id(places))
    if found is None:
        found = np.zeros(len(places.owner), dtype=bool)
        saved = np.append(persisted.block_saved, False)[places.rank]  # rank -1 reads the appended False
        for place in np.flatnonzero(saved).tolist():
            k, block = int(places.joined[place]), places.block[place]
            found[place] = places.texts[int(places.owner[place])] in block_text(persisted.messages[k]["content"][block])
        kept[id(places)] = (places, found)  # the places held: their id is not reused
    else:
        found = found[1]
    return found


def retention(places: ArtifactPlaces, gone, columns: Columns, persisted: Persisted, call: int,
              made_texts: list[str]) -> float | None:
    """Share of the artifacts still sent at `call`, the last (measures/loss.py artifact_retention)."""
    count = len(places.texts)
    if not count:
        return None
    k, rank = places.joined, places.rank
    inside = k >= 0
    safe_k = np.where(inside, k, 0)
    present = inside & (columns.join_call[safe_k] <= call) & (gone.message[safe_k] > call)
    has_rank = rank >= 0
    safe_rank = np.where(has_rank, rank, 0)
    if len(gone.result):
        replaced = has_rank & (gone.result[safe_rank] <= call)
        whole = has_rank & ~replaced & ~persisted.block_saved[safe_rank]
    else:  # no tool result in the conversation: no place has a rank
        replaced = whole = np.zeros(len(rank), dtype=bool)
    sent = present & (~has_rank | (replaced & places.in_placeholder) | whole
                      | (has_rank & ~replaced & _in_preview(places, persisted)))
    kept = np.bincount(places.owner[sent], minlength=count) > 0
    lost = np.flatnonzero(~kept).tolist()
    rescued = sum(1 for number in lost if any(places.texts[number] in text for text in made_texts))
    return (int(kept.sum()) + rescued) / count


def _ints(values: list[int]) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)
