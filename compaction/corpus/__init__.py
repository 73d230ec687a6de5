"""Many sessions at once: one row per session and a sweep over all of them, on one machine or a cluster.

- `files.discover(folder)` / `archive.unpack_sessions(zip, folder)`: the session files of a corpus,
  reading nothing outside its folder; an evaluation output of several runs is one session per run.
- `analyse(files, job, workers=..., scheduler=...)`: the row of every session (rows.COLUMNS), each
  subagent's right under the session that ran it (subagents.py), and, when
  the job has sweep axes, the median and 90th percentile over sessions of every measure per cell. With
  `workers=N` the sessions are spread over N local processes; with `scheduler="tcp://HOST:8786"` over a
  Dask distributed cluster. Paths travel, not contents; the rows are the same plain dicts either way.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from compaction.corpus.aggregate import SweepAggregate, percentile
from compaction.corpus.archive import Unpacked, unpack_sessions
from compaction.corpus.files import SessionFile, checked_path, corpus_root, discover, inside_any, with_refused
from compaction.corpus.homes import agent_homes
from compaction.corpus.rows import COLUMNS, Job, empty_row, session_row
from compaction.corpus.subagents import SUBAGENT, attach
from compaction.errors import SettingsError
from compaction.sweep.parallel import open_executor, stream
from compaction.sweep.sweeps import sweep_grid


@dataclass
class CorpusResult:
    # one per session finished, in the files' order but each subagent under its session (subagents.attach)
    rows: list[dict[str, Any]]
    sweep: dict[str, Any] | None  # SweepAggregate.as_dict() when the job sweeps
    sessions: int  # sessions given (a file, or one run of an evaluation output of several)
    cancelled: bool  # stopped before every session was done

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"sessions": self.rows, "cancelled": self.cancelled}
        if self.sweep is not None:
            data["sweep"] = self.sweep
        return data


def check_job(job: Job) -> None:
    """SettingsError before any work when the sweep's axes cannot make a grid of valid settings."""
    if job.x is None and job.y is None:
        return
    if job.x is None or job.y is None:
        raise SettingsError("a corpus sweep needs two settings, one per axis")
    sweep_grid(job.settings, job.x, job.y)


def failure_row(item: SessionFile, error: BaseException) -> dict[str, Any]:
    """The row of a session its worker could not analyse (the process died, the cluster lost it, or
    this package is missing there)."""
    row = empty_row(item)
    row["error"] = f"{item.name}: could not be analysed on its worker ({type(error).__name__}: {error})"
    return row


def analyse(files: list[SessionFile], job: Job | None = None, workers: int = 1, scheduler: str | None = None,
            progress: Callable[[int, int], None] | None = None,
            cancelled: Callable[[], bool] | None = None) -> CorpusResult:
    """Every session's row (and the sweep aggregate); see the module docstring."""
    job = job or Job()
    check_job(job)
    rows: list[dict | None] = [None] * len(files)
    aggregate = SweepAggregate(job.x, job.y) if job.x is not None and job.y is not None else None

    with open_executor(workers, scheduler) as executor:
        executor.check_paths(sorted({item.root for item in files}))
        for position, row in stream(session_row, files, (job,), executor, failure_row, progress, cancelled):
            cells = row.pop("sweep", None)
            if aggregate is not None and cells is not None:
                aggregate.add(cells)
            rows[position] = row
    finished = attach([row for row in rows if row is not None])
    return CorpusResult(finished, aggregate.as_dict() if aggregate else None, len(files), len(finished) < len(files))


__all__ = ["COLUMNS", "CorpusResult", "Job", "SUBAGENT", "SessionFile", "SweepAggregate", "Unpacked", "analyse", "check_job", "checked_path", "corpus_root", "discover", "failure_row", "agent_homes", "inside_any", "percentile", "session_row", "unpack_sessions", "with_refused"]
