"""Where the dashboard listens: started as the README says (`compaction-lab`, as `make run` starts it),
on 127.0.0.1 only, and it says so; `--server.address 0.0.0.0` serves others, and it says what they get.
The listening sockets are read from /proc/net/tcp and tcp6, as `ss -ltn` reads them."""

import ipaddress
import os
import socket
import subprocess
import sys
from pathlib import Path

from tests.serving import wait_healthy

REPO = Path(__file__).resolve().parents[1]
LAUNCHER = Path(sys.executable).with_name("compaction-lab")
LISTEN = "0A"  # the TCP state of a listening socket in /proc/net/tcp


def listening_on(port: int) -> set[str]:
    """The local addresses of the sockets listening on `port` ("0.0.0.0" or "::" for every interface)."""
    found = set()
    for table, width in (("/proc/net/tcp", 8), ("/proc/net/tcp6", 32)):
        with open(table) as rows:
            next(rows)
            for row in rows:
                local, state = row.split()[1], row.split()[3]
                address, _, hex_port = local.partition(":")
                if state != LISTEN or int(hex_port, 16) != port or len(address) != width:
                    continue
                # each 32-bit word is in the host's (little-endian) order
                raw = b"".join(bytes.fromhex(address[i:i + 8])[::-1] for i in range(0, width, 8))
                found.add(str(ipaddress.ip_address(raw)))
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def started(tmp_path: Path, *flags: str) -> tuple[set[str], str]:
    """Start the dashboard from a folder that is not the checkout with `flags`; where it listened once
    healthy, and what it printed first."""
    port = free_port()
    env = {key: value for key, value in os.environ.items()
           if key not in ("ANTHROPIC_API_KEY", "COMPACTION_SESSION_FOLDERS", "COMPACTION_DASK_SCHEDULERS")}
    log_path = tmp_path / "server.log"
    with open(log_path, "wb") as log:
        server = subprocess.Popen([str(LAUNCHER), "--server.headless", "true", "--server.port", str(port), *flags],
                                  cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_healthy(server, port, log_path)
        return listening_on(port), log_path.read_text()
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_the_dashboard_listens_on_loopback_only_and_says_so(tmp_path):
    addresses, printed = started(tmp_path)
    assert addresses == {"127.0.0.1"}
    assert printed.splitlines()[0] == ("Compaction Lab listens on 127.0.0.1 only: browsers on this machine reach "
                                       "it, no other machine does. To serve others, start it with --server.address "
                                       "0.0.0.0 (README: Serving others).")


def test_serving_others_is_asked_for_and_said(tmp_path):
    addresses, printed = started(tmp_path, "--server.address", "0.0.0.0")
    assert addresses == {"0.0.0.0"}
    assert printed.splitlines()[0].startswith("Compaction Lab serves others: it listens on 0.0.0.0, so browsers on "
                                              "other machines reach it. Theirs get uploads and the bundled samples")


def test_make_run_starts_it_on_loopback():
    planned = subprocess.run(["make", "-n", "run", "PORT=8599"], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert planned.returncode == 0, planned.stderr
    [command] = [line for line in planned.stdout.splitlines() if "compaction-lab" in line]
    assert command.endswith("--server.headless true --server.port 8599 --server.address 127.0.0.1")
