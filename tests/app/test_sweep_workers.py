"""The sweeps' pool of worker processes: started after the app's first page is drawn (so Tune's first cells
wait for no worker to start), each worker with the sweep's module imported and nothing of the app. A spawned
worker begins by running the file that is `__main__` while it is spawned (app.py, during a run): that file
must then draw nothing, or every worker would import streamlit and run the app (and spawn a pool of its own)."""

import os

import pytest

from dashboard.ui import sweep_state
from tests.worker_probe import modules_of_this_worker

pytestmark = pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one core: the app runs no pool")


def test_the_first_run_starts_the_pool_whose_workers_hold_the_sweep_and_not_the_app(app):
    assert not app.exception
    pool = sweep_state._sweep_workers()  # the one the run started (st.cache_resource: one per process)
    assert len(pool._pool._processes) == pool.workers
    names = (sweep_state.SWEEP_MODULE, "streamlit", "dashboard.ui.navigation")
    answers = {tuple(pool.submit(modules_of_this_worker, names).result(timeout=60)) for _ in range(2 * pool.workers)}
    assert answers == {(True, False, False)}
