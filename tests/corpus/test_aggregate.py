"""The corpus sweep's statistics, worked out by hand."""

import pytest

from compaction.corpus import SweepAggregate, percentile


@pytest.mark.parametrize(("values", "share", "expected"), [
    ([], 0.5, None),
    ([7.0], 0.9, 7.0),
    ([1.0, 2.0, 3.0], 0.5, 2.0),
    ([1.0, 2.0, 3.0, 4.0], 0.5, 2.5),
    ([float(n) for n in range(1, 11)], 0.9, 9.1),  # rank (10 - 1) * 0.9 = 8.1: 9 + 0.1 * (10 - 9)
    ([0.0, 100.0], 0.9, 90.0),
])
def test_percentile_interpolates_between_ranks(values, share, expected):
    result = percentile(values, share)
    assert result is None if expected is None else result == pytest.approx(expected)


def test_each_cell_gets_median_and_p90_over_sessions():
    aggregate = SweepAggregate(("context_limit", [10, 20]), ("keep_recent", [1]))
    for tokens, kept in ((100, 0.5), (300, None), (200, 1.0), (400, 0.25)):
        aggregate.add([[{"tokens_sent": tokens, "tool_output_kept": kept},
                        {"tokens_sent": tokens * 2, "tool_output_kept": kept}]])
    data = aggregate.as_dict()
    assert data["x"] == {"name": "context_limit", "values": [10, 20]}
    assert data["y"] == {"name": "keep_recent", "values": [1]} and data["sessions"] == 4
    tokens = data["measures"]["tokens_sent"]
    assert tokens["median"] == [[250.0, 500.0]]  # (200 + 300) / 2
    assert tokens["p90"] == [[pytest.approx(370.0), pytest.approx(740.0)]]  # rank 2.7 of 100, 200, 300, 400
    assert tokens["sessions"] == [[4, 4]]
    kept = data["measures"]["tool_output_kept"]  # the session without tool output does not count
    assert kept["median"] == [[0.5, 0.5]] and kept["sessions"] == [[3, 3]]
    assert list(data["measures"]) == ["tokens_sent", "tool_output_kept"]


def test_the_order_sessions_arrive_in_changes_nothing():
    cells = [[[{"peak_tokens": value}]] for value in (5, 1, 9, 3, 7)]
    forward, backward = SweepAggregate(("a", [1]), ("b", [1])), SweepAggregate(("a", [1]), ("b", [1]))
    for session in cells:
        forward.add(session)
    for session in reversed(cells):
        backward.add(session)
    assert forward.as_dict() == backward.as_dict()
    assert forward.grid("peak_tokens", "median") == [[5.0]]
