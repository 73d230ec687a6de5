"""Corpus fixtures: a small generated corpus with one corrupt file, written once per test module, and a
real Dask cluster on 127.0.0.1."""

from contextlib import contextmanager
from pathlib import Path

import pytest

from compaction.generate.corpus import write_corpus

# A session cut off in the middle of its message list, as an interrupted copy leaves it.
CORRUPT_NAME = "exports/broken/cut-off.json"
CORRUPT_BYTES = b'[{"role": "user", "content": "Fix the export crash"}, {"role": "assis'


def write_small_corpus(folder: Path, sessions: int = 6) -> Path:
    write_corpus(folder, sessions, seed=5, min_turns=3, max_turns=14, typical_output=(150, 600))
    corrupt = folder / CORRUPT_NAME
    corrupt.parent.mkdir(parents=True, exist_ok=True)
    corrupt.write_bytes(CORRUPT_BYTES)
    return folder


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory) -> Path:
    """Six generated sessions (Claude Code and Anthropic JSON) and one corrupt file."""
    return write_small_corpus(tmp_path_factory.mktemp("corpus"))


@contextmanager
def local_cluster():
    """A Dask scheduler and two single-threaded worker processes, all on 127.0.0.1; stopped on leaving."""
    import distributed

    with distributed.LocalCluster(host="127.0.0.1", processes=True, n_workers=2, threads_per_worker=1,
                                  dashboard_address=None, worker_dashboard_address=None) as cluster:
        yield cluster
