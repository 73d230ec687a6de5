"""The bad-input corpus: small committed files (corpus/, expected.json) and the big generated ones.

`cases(big_folder)` gives (name, path, expectation) for every file. An expectation is
{"outcome": "ok" | "error", "words": [...] (in the error), "warnings": [...] (in the load warnings),
"args": [...] (CLI setting flags, also applied in-process), "messages": N, "persisted": N}.
`run_cli` runs `python -m compaction run` in a child process with an address-space limit and a time
limit, and returns its exit status, output and peak memory.
"""

import json
import os
import resource
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from compaction.importers.limits import MEMORY_BOUND_BYTES
from compaction.model.settings import DEFAULTS

from .big_corpus import write_big_corpus

HERE = Path(__file__).parent
CORPUS = HERE / "corpus"
REPO = HERE.parents[1]
EXPECTED = json.loads((CORPUS / "expected.json").read_text())

# Hang detection: no case may take longer than this (the slowest, a 100 MB tool output, takes ~3 s).
CASE_TIMEOUT_S = 120
# The child's address space (RLIMIT_AS): a case needing more dies with MemoryError instead of swapping.
ADDRESS_SPACE_LIMIT = 3 * 1024 ** 3
# Peak resident memory of one CLI run over any case (compaction.importers.limits, docs/limits.md).
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


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_LIMIT, ADDRESS_SPACE_LIMIT))


# `python -m compaction ARGS` that writes its own peak resident memory (VmHWM) to a file as it exits. The
# rusage of a child is no measure: a forked child starts with its parent's high-water mark, which a
# test worker that loaded a big case in-process has raised.
_MEASURED_RUN = """
import atexit, re, runpy, sys
peak_file = sys.argv.pop(1)
def _report():
    status = open("/proc/self/status").read()
    open(peak_file, "w").write(str(int(re.search(r"VmHWM:\\s+(\\d+) kB", status).group(1)) * 1024))
atexit.register(_report)
sys.argv[0] = "compaction"
runpy.run_module("compaction", run_name="__main__", alter_sys=True)
"""


def _peak_file(out_dir: Path) -> Path:
    return out_dir.with_name(out_dir.name + ".peak")  # beside the folder, which must hold only the outputs


def run_cli(path: Path, *args: str, out_dir: Path, timeout: float = CASE_TIMEOUT_S) -> CliRun:
    """`python -m compaction run PATH ARGS` with the memory limit; killed after `timeout` (a hang)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stdout_path, stderr_path = out_dir / "stdout", out_dir / "stderr"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with open(stdout_path, "wb") as stdout, open(stderr_path, "wb") as stderr:
        proc = subprocess.Popen([sys.executable, "-c", _MEASURED_RUN, str(_peak_file(out_dir)), "run", str(path),
                                 *args],
                                cwd=out_dir, stdout=stdout, stderr=stderr, env=env, preexec_fn=_limit_memory)
    waited: list[tuple[int, int, resource.struct_rusage]] = []
    waiter = threading.Thread(target=lambda: waited.append(os.wait4(proc.pid, 0)), daemon=True)
    waiter.start()
    waiter.join(timeout)
    if not waited:
        proc.kill()
        waiter.join(10)
        raise AssertionError(f"{path.name}: the CLI did not finish within {timeout:.0f} s (a hang)")
    _, status, usage = waited[0]
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped by wait4; keep Popen from waiting again
    peak = _peak_file(out_dir)
    return CliRun(proc.returncode, stdout_path.read_text(errors="replace"), stderr_path.read_text(errors="replace"),
                  int(peak.read_text()) if peak.exists() else usage.ru_maxrss * 1024)
