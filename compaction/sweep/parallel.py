"""Running one function over many items: in this process, on a pool of local processes, or on a Dask
distributed cluster, all behind one small interface, so the results are the same whichever runs them.

`stream(function, items, extra, executor, ...)` keeps only a few tasks in flight (IN_FLIGHT_PER_WORKER per
worker), so memory follows the number of workers, not the number of items; it yields (position, result)
as tasks finish, calls `progress(done, total)` after each, and stops submitting as soon as
`cancelled()` is true, cancelling what has not started. Items and results must pickle (paths and plain
dicts here); the function must be importable by the workers (a module-level function of this package).
"""

import concurrent.futures
import importlib
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from compaction.errors import CompactionError

IN_FLIGHT_PER_WORKER = 3
POLL_S = 0.2  # how often a wait wakes up to look at `cancelled`
DASK_CONNECT_TIMEOUT_S = 10


class InProcess:
    """Runs each task at once, in the caller's process (`workers=1`)."""

    workers = 1
    shares_memory = False  # whether its workers start with this process's memory (see ProcessPool)

    def submit(self, function: Callable, *args) -> concurrent.futures.Future:
        future: concurrent.futures.Future = concurrent.futures.Future()
        try:
            future.set_result(function(*args))
        except Exception as error:  # noqa: BLE001 - handed to the caller like a worker's failure
            future.set_exception(error)
        return future

    def wait_any(self, futures: list, timeout: float) -> list:
        return [future for future in futures if future.done()]

    def check_paths(self, paths: list[str]) -> None:
        """Local workers see what this process sees."""

    def cancel(self, futures: list) -> None:
        pass

    def close(self) -> None:
        pass


class ProcessPool(InProcess):
    """A pool of `workers` local processes, started fresh ("spawn": forking a threaded server such as
    Streamlit's is unsafe). A pool broken by a worker that died is replaced on the next submission.

    `forked=True` forks them instead, for a process that runs no other thread (the command line): they
    start at once, with what this process imported and prepared before its first task
    (`shares_memory`)."""

    def __init__(self, workers: int, forked: bool = False, preload: str | None = None):
        self.workers = workers
        self.shares_memory = forked and "fork" in multiprocessing.get_all_start_methods()
        self.preload = preload  # a module each worker imports as it starts
        self._pool = self._new_pool()
        self._running: set = set()  # futures not yet done, so that close knows whether it may wait

    def _new_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        context = multiprocessing.get_context("fork" if self.shares_memory else "spawn")
        if not self.preload:
            return concurrent.futures.ProcessPoolExecutor(self.workers, mp_context=context)
        return concurrent.futures.ProcessPoolExecutor(self.workers, mp_context=context, initializer=_import,
                                                      initargs=(self.preload,))

    def start(self) -> None:
        """Start every worker now rather than at the first tasks, which then wait for no new interpreter
        and no import: one empty task per worker (a spawned pool adds a process per task while none is
        idle)."""
        for _ in range(self.workers):
            self.submit(int)

    def submit(self, function: Callable, *args) -> concurrent.futures.Future:
        try:
            future = self._pool.submit(function, *args)
        except concurrent.futures.process.BrokenProcessPool:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self.shares_memory = False  # this process now runs the old pool's thread: no fork after it
            self._pool = self._new_pool()
            future = self._pool.submit(function, *args)
        self._running.add(future)
        future.add_done_callback(self._running.discard)
        return future

    def wait_any(self, futures: list, timeout: float) -> list:
        done, _ = concurrent.futures.wait(futures, timeout, return_when=concurrent.futures.FIRST_COMPLETED)
        return list(done)

    def cancel(self, futures: list) -> None:
        for future in futures:
            future.cancel()

    def close(self) -> None:
        # Waiting when nothing runs: Python 3.11's pool, left to shut down at exit, can race its own
        # pipe closing ("OSError: Bad file descriptor" printed as the process ends)
        self._pool.shutdown(wait=not self._running, cancel_futures=True)


INSTALL_HINT = "pip install 'compaction-lab[cluster]' on each worker"


def installed_version() -> str:
    """This package's version where this runs: on a worker it fails to even arrive when the package is not
    installed there, which is the point (DaskCluster.check_workers)."""
    from compaction.version import __version__

    return __version__


def _listed(addresses) -> str:
    addresses = sorted(addresses)
    return ", ".join(addresses[:3]) + (f" and {len(addresses) - 3} more" if len(addresses) > 3 else "")


def _import(module: str) -> None:
    """A pool worker's initializer: import `module` as the worker starts."""
    importlib.import_module(module)


class DaskCluster:
    """Tasks on a Dask distributed cluster at `address` (e.g. tcp://10.0.0.5:8786). Its workers need
    this package installed, at this version, and must see the corpus folder at the same path: both are
    checked before any work is sent, so a wrong cluster is one clear message, not a failure per row."""

    def __init__(self, address: str):
        try:
            from distributed import Client
        except ImportError:
            raise CompactionError("a scheduler address needs Dask: pip install 'dask[distributed]'") from None
        try:
            self.client = Client(address, timeout=DASK_CONNECT_TIMEOUT_S, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as error:
            raise CompactionError(f"cannot reach the Dask scheduler at {address}: {error}") from None
        scheduler = self.client.scheduler  # None only before a client connects
        self.address = scheduler.address if scheduler is not None else address
        try:
            self.check_workers()
        except BaseException:
            self.client.close()
            raise
        self.workers = max(1, sum(self.client.nthreads().values()))

    def check_workers(self) -> None:
        """CompactionError unless every worker imports compaction at this process's version."""
        from compaction.version import __version__

        address = self.address
        answers = self.client.run(installed_version, on_error="return")
        if not answers:
            raise CompactionError(f"the Dask scheduler at {address} has no workers: start some with "
                                  f"`dask worker {address}`")
        missing = [worker for worker, answer in answers.items() if isinstance(answer, BaseException)]
        if missing:
            raise CompactionError(f"the workers at {_listed(missing)} do not have compaction-lab {__version__} "
                                  f"installed: {INSTALL_HINT}")
        other = {worker: answer for worker, answer in answers.items() if answer != __version__}
        if other:
            found = ", ".join(sorted(set(other.values())))
            raise CompactionError(f"the workers at {_listed(other)} have compaction-lab {found}, not {__version__}: "
                                  f"{INSTALL_HINT.replace('install', 'install --upgrade', 1)}")

    def check_paths(self, paths: list[str]) -> None:
        """CompactionError unless every worker sees each of `paths` (a corpus folder) where this process does."""
        for path in paths:
            blind = [worker for worker, seen in self.client.run(os.path.exists, path, on_error="return").items()
                     if seen is not True]
            if blind:
                raise CompactionError(f"the workers at {_listed(blind)} cannot see {path}: each worker must see "
                                      "the sessions at the same path as this machine (a shared folder)")

    def submit(self, function: Callable, *args):
        return self.client.submit(function, *args, pure=False)

    def wait_any(self, futures: list, timeout: float) -> list:
        from distributed import wait
        from distributed.client import FuturesCancelledError

        try:
            with self.client.as_current():  # this client is not the process's default one
                done, _ = wait(futures, timeout=timeout, return_when="FIRST_COMPLETED")
        except TimeoutError:
            return []
        except (OSError, FuturesCancelledError) as error:  # the scheduler went away, or another client cancelled
            raise CompactionError(f"lost the Dask cluster at {self.address}: {error}") from None
        return list(done)

    def cancel(self, futures: list) -> None:
        if futures:
            self.client.cancel(futures)

    def close(self) -> None:
        self.client.close()


@contextmanager
def open_executor(workers: int = 1, scheduler: str | None = None, forked: bool = False):
    """The executor asked for: Dask when a scheduler address is given, else `workers` local processes
    (1: this process; `forked`: see ProcessPool). Closed on leaving, also after an error or an
    interruption."""
    executor: InProcess | DaskCluster
    if scheduler:
        executor = DaskCluster(scheduler)
    elif isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise CompactionError(f"workers must be a whole number of at least 1, got {workers!r}")
    else:
        executor = InProcess() if workers == 1 else ProcessPool(workers, forked)
    try:
        yield executor
    finally:
        executor.close()


def stream(function: Callable, items: Sequence, extra: tuple, executor, on_failure: Callable[[Any, BaseException], Any],
           progress: Callable[[int, int], None] | None = None, cancelled: Callable[[], bool] | None = None,
           in_flight: int | None = None) -> Iterator[tuple[int, Any]]:
    """(position, function(item, *extra)) for each item, in the order they finish. A task that raised
    (or whose worker died) gives on_failure(item, error) instead."""
    limit = in_flight or IN_FLIGHT_PER_WORKER * executor.workers
    stopped = cancelled or (lambda: False)
    pending: dict[Any, int] = {}
    upcoming = iter(range(len(items)))
    done = 0
    try:
        while True:
            while len(pending) < limit and not stopped():
                position = next(upcoming, None)
                if position is None:
                    break
                pending[executor.submit(function, items[position], *extra)] = position
            if not pending or stopped():
                return
            for future in executor.wait_any(list(pending), POLL_S):
                position = pending.pop(future)
                try:
                    outcome = future.result()
                except Exception as error:  # noqa: BLE001 - a worker's failure becomes that item's result
                    outcome = on_failure(items[position], error)
                done += 1
                yield position, outcome
                if progress is not None:
                    progress(done, len(items))
    finally:
        executor.cancel(list(pending))
