"""sweep_stream: the sweep yielded as it fills, for Tune's heatmap. Each yield holds more cells than the
one before, the cells still to do hold None for every measure, and the last is the sweep's grid, in
this process or spread over workers."""

import pytest

from compaction.errors import CompactionError, SettingsError
from compaction.generate import generate
from compaction.measures.registry import MEASURES
from compaction.sweep.parallel import ProcessPool, open_executor
from compaction.sweep.sweeps import NOT_DONE, sweep, sweep_stream
from tests.worker_probe import modules_of_this_worker

AXES = (("context_limit", [8_000, 20_000, 60_000]), ("keep_recent", [1, 3]))


@pytest.fixture(scope="module")
def session():
    return generate("realistic", turns=60, seed=2, parallel_share=0.3)


def snapshots(stream) -> list[tuple[int, list[list[dict]]]]:
    return [(found.cells_done, [[dict(cell) for cell in row] for row in found.cells]) for found in stream]


def test_cells_come_one_by_one_and_end_as_the_sweep(session):
    seen = snapshots(sweep_stream(session, *AXES))
    assert [done for done, _ in seen] == list(range(1, 7))
    first_done, first = seen[0]
    assert sum(cell != NOT_DONE for row in first for cell in row) == first_done
    assert all(set(cell) == set(MEASURES) for row in first for cell in row)
    for (_, before), (_, after) in zip(seen, seen[1:], strict=False):  # a cell done stays as it was
        assert all(a == b for row_b, row_a in zip(before, after, strict=True)
                   for b, a in zip(row_b, row_a, strict=True) if b != NOT_DONE)
    assert seen[-1][1] == sweep(session, *AXES).cells


def test_spread_over_workers_it_comes_a_cell_per_worker_then_the_rest_of_each_line(session):
    # a strategy the columnar kernel does not cover: its lines go to the workers
    with open_executor(2) as executor:
        seen = snapshots(sweep_stream(session, *AXES, executor=executor, strategy="masking"))
        kernel = snapshots(sweep_stream(session, *AXES, executor=executor))
    done = [0] + [cells for cells, _ in seen]
    steps = [after - before for before, after in zip(done, done[1:], strict=False)]
    # a line is a KEEP_RECENT of three cells: each worker's first task is one cell of it, then the other two
    assert steps[0] == 1 and sorted(steps) == [1, 1, 2, 2]
    assert seen[-1][1] == sweep(session, *AXES, strategy="masking").cells
    # the pipeline's cells come from the kernel here, one by one, whatever the executor
    assert [cells for cells, _ in kernel] == list(range(1, 7)) and kernel[-1][1] == sweep(session, *AXES).cells


def test_a_started_pool_runs_every_worker_with_its_module_imported_before_any_task():
    asked = ("compaction.sweep.spread",)
    plain = ProcessPool(1)
    try:  # without a preload a worker has not imported it: the check below can fail
        assert plain.submit(modules_of_this_worker, asked).result(timeout=60) == [False]
    finally:
        plain.close()
    pool = ProcessPool(2, preload=asked[0])
    try:
        pool.start()
        assert len(pool._pool._processes) == 2  # both started by start(), not by the first tasks
        answers = [pool.submit(modules_of_this_worker, asked).result(timeout=60) for _ in range(4)]
        assert answers == [[True]] * 4
    finally:
        pool.close()


def test_a_bad_grid_fails_before_any_cell_and_cancelling_stops_it(session):
    with pytest.raises(SettingsError):
        next(sweep_stream(session, ("context_limit", [0]), ("keep_recent", [1])))
    done = []
    stream = sweep_stream(session, *AXES, cancelled=lambda: len(done) >= 2)
    done.extend(found.cells_done for found in stream)
    assert done == [1, 2]
    with pytest.raises(CompactionError, match="cancelled"):
        sweep(session, *AXES, cancelled=lambda: True)
