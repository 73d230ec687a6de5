"""The bad-input corpus: small committed files (corpus/, expected.json) and the big generated ones.

`cases(big_folder)` gives (name, path, expectation) for every file. An expectation is
{"outcome": "ok" | "error", "words": [...] (in the error), "warnings": [...] (in the load warnings),
"args": [...] (CLI setting flags, also applied in-process), "messages": N, "persisted": N}.
`run_cli` runs `python -m compaction run` in a child process with an address-space limit and a time
limit, and returns its exit status, output and peak memory.
"""

import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from compaction.limits import MEMORY_BOUND_BYTES
from compaction.settings import DEFAULTS

from .big_corpus import write_big_corpus

HERE = Path(__file__).parent
CORPUS = HERE / "corpus"
REPO = HERE.parents[1]
EXPECTED = json.loads((CORPUS / "expected.json").read_text())

# Hang detection: no case may take longer than this (the slowest, a 100 MB tool output, takes ~3 s).
CASE_TIMEOUT_S = 120
# The child's address space (RLIMIT_AS): a case needing more dies with MemoryError instead of swapping.
ADDRESS_SPACE_LIMIT = 3 * 1024 ** 3
# Peak resident memory of one CLI run over any case (compaction.limits, docs/limits.md).
MAX_RSS_BYTES = MEMORY_BOUND_BYTES


def cases(big_folder: Path | None = None) -> list[tuple[str, Path, dict]]:
    found = [(name, CORPUS / name, expectation) for name, expectation in sorted(EXPECTED.items())]
    if big_folder is not None:
        found += [(name, big_folder / name, expectation)
                  for name, expectation in sorted(write_big_corpus(big_folder).items())]
    return found


def settings_for(expectation: dict):
    """The Settings that the expectation's CLI flags ask for (e.g. a tiny L3 budget)."""
    args = expectation.get("args", [])
    flags = {args[i][2:].replace("-", "_"): int(args[i + 1]) for i in range(0, len(args), 2)}
    return DEFAULTS.replace(**flags)


@dataclass
class CliRun:
    status: int
    stdout: str
    stderr: str
    max_rss: int  # bytes


# Runs the CLI as its own child and prints "exit status, peak RSS in KiB". A child starts with the peak
# memory of the process that forked it (Linux keeps it across exec), so the CLI is forked from this small
# helper, not from the test process, which the in-process big cases may have grown past the bound.
_MEASURE = """
import os, resource, subprocess, sys
limit, out, err, *command = sys.argv[1:]
def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (int(limit), int(limit)))
with open(out, "wb") as stdout, open(err, "wb") as stderr:
    proc = subprocess.Popen(command, stdout=stdout, stderr=stderr, preexec_fn=limit_memory)
_, status, usage = os.wait4(proc.pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
"""


def run_cli(path: Path, *args: str, out_dir: Path, timeout: float = CASE_TIMEOUT_S) -> CliRun:
    """`python -m compaction run PATH ARGS` with the memory limit; killed after `timeout` (a hang)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stdout_path, stderr_path = out_dir / "stdout", out_dir / "stderr"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-c", _MEASURE, str(ADDRESS_SPACE_LIMIT), str(stdout_path), str(stderr_path),
               sys.executable, "-m", "compaction", "run", str(path), *args]
    helper = subprocess.Popen(command, cwd=out_dir, env=env, stdout=subprocess.PIPE, start_new_session=True)
    try:
        measured, _ = helper.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(helper.pid, signal.SIGKILL)  # the helper and the CLI it started
        helper.communicate()
        raise AssertionError(f"{path.name}: the CLI did not finish within {timeout:.0f} s (a hang)") from None
    status, max_rss_kib = map(int, measured.split())
    return CliRun(status, stdout_path.read_text(errors="replace"), stderr_path.read_text(errors="replace"),
                  max_rss_kib * 1024)
