"""Waiting for a dashboard started as its own process (tests that start `compaction-lab`)."""

import subprocess
import time
import urllib.request
from pathlib import Path


def wait_healthy(server: subprocess.Popen, port: int, log_path: Path, seconds: float = 60) -> None:
    """Return once Streamlit's health endpoint on 127.0.0.1:`port` answers "ok"; fail with the server's
    output when it stops or `seconds` pass first."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as reply:
                assert reply.read() == b"ok"
                return
        except OSError:
            assert server.poll() is None and time.monotonic() < deadline, log_path.read_text()
            time.sleep(0.25)
