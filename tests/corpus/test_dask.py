"""The corpus on a real Dask cluster (a scheduler and two worker processes on 127.0.0.1) gives the same
rows and sweep as in-process, and nothing of the cluster listens beyond 127.0.0.1."""

import math
import os
import shutil
import time
from pathlib import Path

import psutil
import pytest

from compaction.corpus import Job, analyse, discover
from compaction.errors import CompactionError
from compaction.sweep import parallel as executors
from compaction.sweep.parallel import open_executor, stream

from .conftest import local_cluster

SWEEP = Job(x=("context_limit", (5_000, 50_000)), y=("keep_recent", (0, 3)))


@pytest.fixture(scope="module")
def cluster():
    with local_cluster() as running:
        yield running


def listening_addresses() -> set[str]:
    """The IP addresses that this process and its children (the cluster's processes) listen on."""
    me = psutil.Process(os.getpid())
    found = set()
    for process in (me, *me.children(recursive=True)):
        for connection in process.net_connections(kind="inet"):
            if connection.status == psutil.CONN_LISTEN:
                found.add(connection.laddr.ip)
    return found


def test_dask_cluster_rows_and_sweep_equal_the_in_process_ones(small_corpus, cluster):
    files = discover(small_corpus)
    seen = []
    on_cluster = analyse(files, SWEEP, scheduler=cluster.scheduler_address,
                         progress=lambda done, total: seen.append(done))
    alone = analyse(files, SWEEP)
    assert on_cluster.rows == alone.rows and on_cluster.sweep == alone.sweep
    assert len(on_cluster.rows) == 7 and seen == list(range(1, 8))
    assert sum(1 for row in on_cluster.rows if row["error"]) == 1  # the corrupt file, on its row
    assert len(cluster.scheduler_info["workers"]) == 2


def test_the_cluster_listens_on_loopback_only(cluster):
    assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
    assert all(address.startswith("tcp://127.0.0.1:") for address in cluster.scheduler_info["workers"])
    assert listening_addresses() <= {"127.0.0.1"}


def test_an_unreachable_scheduler_is_named(small_corpus, monkeypatch):
    monkeypatch.setattr(executors, "DASK_CONNECT_TIMEOUT_S", 1)
    with pytest.raises(CompactionError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:1"):
        analyse(discover(small_corpus), Job(), scheduler="tcp://127.0.0.1:1")


def test_tasks_slower_than_a_poll_and_failing_tasks(cluster):
    with open_executor(scheduler=cluster.scheduler_address) as executor:
        slow = list(stream(time.sleep, [3 * executors.POLL_S, 0.0], (), executor, on_failure=None))
        failed = dict(stream(math.sqrt, [4.0, -1.0], (), executor,
                             on_failure=lambda item, error: f"{item}: {type(error).__name__}"))
    assert sorted(slow) == [(0, None), (1, None)]
    assert failed == {0: 2.0, 1: "-1.0: ValueError"}


def test_the_runs_of_an_evaluation_output_travel_as_path_and_key(cluster, tmp_path):
    shutil.copy(Path(__file__).parents[1] / "importers" / "cases" / "valid" / "openhands_output_metrics.jsonl",
                tmp_path / "output.jsonl")
    files = discover(tmp_path)
    on_cluster = analyse(files, Job(), scheduler=cluster.scheduler_address)
    assert on_cluster.rows == analyse(files, Job()).rows
    assert [row["session"] for row in on_cluster.rows] == ["textkit__textkit-17", "dates__dates-4", "pkg__pkg-2"]
