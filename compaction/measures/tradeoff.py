"""Which choices no other beats: the Pareto front of points where lower is better on every axis.

A saving needs its cost and its loss beside it: the sweep's cells and the compared strategies are
points (cost, blind references, ...) and the front is the set worth choosing from.
"""

from collections.abc import Sequence


def pareto_front(points: Sequence[Sequence[float | None]]) -> set[int]:
    """Indices of the points that no other point matches on every axis and beats on one. A missing
    value (None) counts as the worst."""
    scores = [[float("inf") if value is None else value for value in point] for point in points]
    front = set()
    for index, mine in enumerate(scores):
        beaten = any(other != mine and all(o <= m for o, m in zip(other, mine, strict=True))
                     for position, other in enumerate(scores) if position != index)
        if not beaten:
            front.add(index)
    return front
