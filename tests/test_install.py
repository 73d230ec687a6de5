"""The checkout installs as a package (not editable) into a new venv, and its two commands work from a
folder that is not the checkout. The new venv borrows this venv's third-party packages through a .pth
line (no download), but compaction-lab itself is built and installed there from the checkout."""

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.serving import wait_healthy

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "sample_data" / "seed_demo.json"


def run(command: list, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    return subprocess.run([str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """bin/ of a new venv with the checkout installed into it."""
    folder = tmp_path_factory.mktemp("install")
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    site = Path(sysconfig.get_path("purelib", vars={"base": str(venv), "platbase": str(venv)}))
    site.mkdir(parents=True, exist_ok=True)
    (site / "borrowed-packages.pth").write_text(sysconfig.get_path("purelib") + "\n")
    # a copy of what git holds, so the build writes nothing into the checkout
    checkout = folder / "checkout"
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    for name in tracked.decode().split("\0"):
        if name and (REPO / name).is_file():
            (checkout / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, checkout / name)
    done = run([venv / "bin" / "python", "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index",
                checkout], cwd=folder, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return venv / "bin"


def test_every_package_of_the_checkout_is_installed(installed):
    found = {".".join(path.parent.relative_to(REPO).parts) for top in ("compaction", "dashboard")
             for path in (REPO / top).rglob("__init__.py")}
    site = Path(sysconfig.get_path("purelib", vars={"base": str(installed.parent), "platbase": str(installed.parent)}))
    there = {".".join(path.parent.relative_to(site).parts) for top in ("compaction", "dashboard")
             for path in (site / top).rglob("__init__.py")}
    assert "compaction.agents.claude_code.log" in found
    assert found <= there, f"packages of the checkout not installed: {sorted(found - there)}"


def test_the_installed_package_is_used_not_the_checkout(installed, tmp_path):
    done = run([installed / "python", "-c", "import compaction, dashboard.ui.navigation as n; "
                "print(compaction.__file__); print(n.PAGES_DIR)"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    package, pages = done.stdout.split()
    assert package.startswith(str(installed.parent)) and pages.startswith(str(installed.parent))
    assert (Path(pages) / "replay.py").is_file()


def test_the_compaction_command_works_from_another_folder(installed, tmp_path):
    assert "run" in run([installed / "compaction", "--help"], cwd=tmp_path).stdout
    done = run([installed / "compaction", "run", SAMPLE], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "tool pairs intact" in done.stdout
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "seed.json").write_bytes(SAMPLE.read_bytes())
    corpus = run([installed / "compaction", "corpus", tmp_path / "corpus"], cwd=tmp_path)
    assert corpus.returncode == 0 and "1 sessions, 0 could not be read" in corpus.stdout, corpus.stderr


def test_the_dashboard_command_serves_the_app_with_its_samples(installed, tmp_path):
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}
    with open(tmp_path / "server.log", "wb") as log:
        server = subprocess.Popen([str(installed / "compaction-lab"), "--server.headless", "true", "--server.port",
                                   str(port), "--server.address", "127.0.0.1"], cwd=tmp_path, env=env, stdout=log,
                                  stderr=subprocess.STDOUT)
    try:
        wait_healthy(server, port, tmp_path / "server.log")
        samples = run([installed / "python", "-c", "from compaction.samples import TITLES, sample_file; "
                       "print(all(sample_file(name).is_file() for name in TITLES))"], cwd=tmp_path)
        assert samples.stdout.strip() == "True", samples.stderr
    finally:
        server.terminate()
        server.wait(timeout=20)
