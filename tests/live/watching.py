"""`compaction watch --json` as a separate process, its stdout read a JSON object at a time, and a log
file written the way an agent writes it (appended, flushed, sometimes half a line at a time).

Waiting is on what the watcher prints, never on the clock: `until` blocks until an object matching a
test arrives. Its timeout only keeps a broken run from hanging the suite; nothing is asserted on time.

The watcher is started as `make test &` starts it, with SIGINT ignored (a background job inherits it so),
every time: Ctrl-C must stop it however it was started. It runs this checkout's engine (`-m compaction`
with this checkout first on the path), not whichever the `compaction` script was installed from.
"""

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
SAFETY_SECONDS = 120


def _as_in_the_background() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Watch:
    def __init__(self, path: Path, *flags: str, env: dict | None = None):
        command = [sys.executable, "-m", "compaction", "watch", str(path), "--json", "--every", "0.05", *flags]
        environment = {k: v for k, v in os.environ.items() if k != "COMPACTION_SESSION_FOLDERS"} | (env or {})
        environment["PYTHONPATH"] = os.pathsep.join(filter(None, (str(CHECKOUT), environment.get("PYTHONPATH"))))
        self.proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env=environment, cwd=path.parent, preexec_fn=_as_in_the_background)
        self.seen: list[dict] = []
        self._lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def until(self, test) -> dict:
        """The next object for which `test` is true (every object read is kept in `seen`)."""
        while True:
            try:
                line = self._lines.get(timeout=SAFETY_SECONDS)
            except queue.Empty:
                raise AssertionError(f"compaction watch printed nothing matching for {SAFETY_SECONDS} s; "
                                     f"so far: {self.seen[-5:]}") from None
            if line is None:
                raise AssertionError(f"compaction watch ended: {self.proc.wait()} {self.proc.stderr.read()}")
            found = json.loads(line)
            self.seen.append(found)
            if test(found):
                return found

    def to_the_end(self) -> tuple[int, str]:
        """Wait for the watcher to end by itself; its exit status and what it wrote on stderr (every object
        it printed is kept in `seen`)."""
        while (line := self._lines.get(timeout=SAFETY_SECONDS)) is not None:
            self.seen.append(json.loads(line))
        return self.proc.wait(timeout=SAFETY_SECONDS), self.proc.stderr.read()

    def interrupt(self, number: int = signal.SIGINT) -> dict:
        """Ctrl-C (or another signal), and the watcher's last object."""
        self.proc.send_signal(number)
        return self.until(lambda found: found["event"] == "stopped")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=SAFETY_SECONDS)
        self.proc.stdout.close()
        self.proc.stderr.close()

    def events(self, kind: str) -> list[dict]:
        return [found for found in self.seen if found["event"] == kind]


class GrowingLog:
    """A file written by appending, as an agent writes its log."""

    def __init__(self, path: Path):
        self.path = path
        path.write_bytes(b"")

    def append(self, data: bytes) -> int:
        """Append and flush; the file's size after it."""
        with open(self.path, "ab") as handle:
            handle.write(data)
        return self.path.stat().st_size
