"""A Dask cluster as people start one: `dask scheduler` and `dask worker` as separate processes, in a
folder that is not the checkout, and the installed `compaction` command talking to it. The rows equal the
in-process ones; a cluster whose workers lack the package gets one message naming the fix."""

import json
import os
import re
import subprocess
import sys
import sysconfig
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from compaction import __version__
from compaction.errors import CompactionError
from compaction.sweep.parallel import DaskCluster

from .conftest import write_small_corpus

BIN = Path(sys.executable).parent
START_TIMEOUT_S = 60


def clean_environment() -> dict[str, str]:
    """No PYTHONPATH: the processes find compaction only where it is installed."""
    return {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}


@contextmanager
def cluster(folder: Path, worker_python: Path, workers: int = 2):
    """A scheduler on 127.0.0.1 and `workers` single-threaded workers run by `worker_python`, started
    in `folder`; yields the scheduler's address."""
    scheduler_file = folder / "scheduler.json"
    logs = folder / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    processes = []

    def start(name: str, command: list[str]) -> None:
        with open(logs / f"{name}.log", "wb") as log:
            processes.append(subprocess.Popen(command, cwd=folder, env=clean_environment(), stdout=log,
                                              stderr=subprocess.STDOUT))
    try:
        start("scheduler", [str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", "0",
                            "--no-dashboard", "--scheduler-file", str(scheduler_file)])
        deadline = time.monotonic() + START_TIMEOUT_S
        address = None
        while address is None:  # the file appears before the scheduler has written all of it
            assert time.monotonic() < deadline, (logs / "scheduler.log").read_text()
            try:
                address = json.loads(scheduler_file.read_text())["address"]
            except (FileNotFoundError, json.JSONDecodeError):
                time.sleep(0.2)
        for number in range(workers):
            start(f"worker-{number}", [str(worker_python), "-m", "distributed.cli.dask_worker", address,
                                       "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard", "--no-nanny"])
        wait_for_workers(address, workers, deadline)
        yield address
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


def wait_for_workers(address: str, count: int, deadline: float) -> None:
    from distributed import Client

    with Client(address, timeout=START_TIMEOUT_S, set_as_default=False) as client:
        while len(client.scheduler_info(n_workers=-1)["workers"]) < count:
            assert time.monotonic() < deadline, f"fewer than {count} workers joined {address}"
            time.sleep(0.2)


def compaction_command(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "compaction"), *args], cwd=folder, env=clean_environment(),
                          capture_output=True, text=True, timeout=300)


def python_without_compaction(folder: Path) -> Path:
    """A venv that sees this venv's packages (Dask included) through a .pth line, but not the install of
    compaction itself: the editable install's own .pth (its import hook) is only read from a site folder."""
    venv = folder / "bare-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    site = Path(sysconfig.get_path("purelib", vars={"base": str(venv), "platbase": str(venv)}))
    site.mkdir(parents=True, exist_ok=True)
    (site / "this-venv-packages.pth").write_text(sysconfig.get_path("purelib") + "\n")
    python = venv / "bin" / "python"
    check = subprocess.run([str(python), "-c", "import distributed, compaction"], capture_output=True, text=True,
                           cwd=folder, env=clean_environment(), timeout=120)
    assert "No module named 'compaction'" in check.stderr, check.stderr
    return python


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory) -> Path:
    """A folder that is not the checkout, holding a small corpus."""
    folder = tmp_path_factory.mktemp("not-the-checkout")
    write_small_corpus(folder / "sessions")
    return folder


# One cluster of each kind serves the module's tests: a scheduler and its workers cost seconds of CPU each
# time they start, and no test leaves anything in them that another reads.
@pytest.fixture(scope="module")
def full_cluster(elsewhere):
    """The scheduler's address; two workers run by this interpreter (compaction installed)."""
    with cluster(elsewhere / "cluster", Path(sys.executable)) as address:
        yield address


@pytest.fixture(scope="module")
def bare_cluster(elsewhere):
    """The scheduler's address; one worker run by a Python without compaction."""
    with cluster(elsewhere / "bare-cluster", python_without_compaction(elsewhere), workers=1) as address:
        yield address


def test_dask_scheduler_and_workers_give_the_in_process_rows(elsewhere, full_cluster):
    corpus = str(elsewhere / "sessions")
    alone = compaction_command(elsewhere, "corpus", corpus, "--json", "--sweep", "context_limit=5000,50000",
                               "keep_recent=0,3")
    assert alone.returncode == 0, alone.stderr
    spread = compaction_command(elsewhere, "corpus", corpus, "--json", "--scheduler", full_cluster, "--sweep",
                                "context_limit=5000,50000", "keep_recent=0,3")
    assert spread.returncode == 0, spread.stderr
    rows = json.loads(spread.stdout)
    assert rows == json.loads(alone.stdout)
    assert len(rows["sessions"]) == 7
    assert sum(1 for row in rows["sessions"] if row["error"]) == 1  # the corrupt file, on its own row


def test_workers_without_the_package_get_one_message_naming_the_fix(elsewhere, bare_cluster):
    done = compaction_command(elsewhere, "corpus", str(elsewhere / "sessions"), "--json", "--scheduler", bare_cluster)
    assert done.returncode == 2
    assert done.stdout == ""  # no rows at all, rather than a failure in every row
    assert re.fullmatch(rf"compaction: error: the workers at tcp://127\.0\.0\.1:\d+ do not have compaction-lab "
                        rf"{re.escape(__version__)} installed: pip install 'compaction-lab\[cluster\]' on each worker\n",
                        done.stderr), done.stderr


def test_a_folder_the_workers_cannot_see_is_named(elsewhere, full_cluster):
    executor = DaskCluster(full_cluster)
    try:
        executor.check_paths([str(elsewhere / "sessions")])  # seen: nothing raised
        with pytest.raises(CompactionError, match=r"cannot see /nowhere/sessions: each worker must see"):
            executor.check_paths(["/nowhere/sessions"])
    finally:
        executor.close()


def test_the_sessions_page_names_the_fix_and_lists_no_row(elsewhere, bare_cluster, monkeypatch, tmp_path):
    from streamlit.testing.v1 import AppTest

    from tests.app.conftest import REPO, TIMEOUT

    monkeypatch.setenv("COMPACTION_STORE_ROOT", str(tmp_path / "store"))
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT).run()
    at.switch_page("app_pages/sessions.py").run()
    at.text_input(key="sessions_scheduler").set_value(bare_cluster)
    at.text_input(key="sessions_folder").set_value(str(elsewhere / "sessions"))
    at.button(key="sessions_read").click().run()
    assert not at.exception
    assert [error.value for error in at.error if "do not have compaction-lab" in error.value]
    assert not at.dataframe  # no table of failed rows
