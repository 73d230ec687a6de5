"""A real browser on another machine, as far as the server can tell: the dashboard started with
`--server.address 0.0.0.0` and opened at this machine's own network address (not loopback), so
Streamlit gives the server that address, not None. With no allow-list set, that browser is told why
no folder of the server is offered and a typed folder is refused with the same sentence; the same server
opened at 127.0.0.1 offers ~/.claude/projects as before."""

import contextlib
import os
import shutil
import socket
import subprocess

import pytest
from browser_helpers import expect_no_exception, open_nav_page, start_streamlit, wait_idle
from playwright.sync_api import expect

from compaction.access import REMOTE_FOLDERS
from tests.corpus.conftest import write_small_corpus

pytestmark = pytest.mark.browser


def network_address() -> str | None:
    """This machine's address on its network (the source of a route out), None without one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # nothing is sent: connecting a UDP socket only picks the route
        except OSError:
            return None
        found = probe.getsockname()[0]
    return None if found.startswith("127.") else found


TEST_ADDRESS = "192.0.2.2"  # TEST-NET-1 (RFC 5737): never routed, so safe to give the loopback device


@contextlib.contextmanager
def an_address_that_is_not_loopback():
    """This machine's network address; on a machine without one (a closed CI sandbox), a documentation-only
    address added to the loopback device for the test's length, where root may add one. Streamlit then
    sees a client address that is not loopback either way."""
    found = network_address()
    if found is not None:
        yield found
        return
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("no network address besides loopback, and no root to add one")
    added = subprocess.run(["ip", "addr", "add", f"{TEST_ADDRESS}/32", "dev", "lo"], capture_output=True, text=True)
    if added.returncode != 0:
        pytest.skip(f"no network address besides loopback, and none could be added: {added.stderr.strip()}")
    try:
        yield TEST_ADDRESS
    finally:
        subprocess.run(["ip", "addr", "del", f"{TEST_ADDRESS}/32", "dev", "lo"], capture_output=True)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with an_address_that_is_not_loopback() as address:
        yield from _served(tmp_path_factory, address)


def _served(tmp_path_factory, address: str):
    home = tmp_path_factory.mktemp("served-home")
    write_small_corpus(home / ".claude" / "projects")
    server = start_streamlit(address="0.0.0.0", env={"HOME": str(home), "COMPACTION_SESSION_FOLDERS": None,
                                                     "COMPACTION_DASK_SCHEDULERS": None})
    try:
        yield server.url, server.url.replace("127.0.0.1", address), home
    finally:
        server.stop()


def open_sessions(page, url: str) -> None:
    page.goto(url)
    wait_idle(page)
    open_nav_page(page, "Sessions", "Sessions")


def test_a_browser_on_another_machine_is_told_why_and_refused(page, served):
    _, remote_url, home = served
    open_sessions(page, remote_url)
    expect(page.get_by_text(REMOTE_FOLDERS)).to_be_visible()
    expect(page.get_by_role("button", name="Use my Claude Code sessions")).to_have_count(0)  # the registry's title
    page.get_by_role("textbox", name="Folder").fill(str(home / ".claude" / "projects"))
    page.get_by_role("textbox", name="Folder").press("Enter")
    wait_idle(page)
    page.get_by_role("button", name="Read this folder").click()
    wait_idle(page)
    expect(page.locator("[data-testid='stAlert']").filter(has_text=REMOTE_FOLDERS)).to_have_count(2)  # note, refusal
    expect(page.locator("h2", has_text="session files")).to_have_count(0)  # no folder was opened
    expect_no_exception(page)


def test_the_same_server_from_this_machine_offers_the_agents_folder(page, served):
    local_url, _, home = served
    open_sessions(page, local_url)
    expect(page.get_by_role("button", name=f"Use my Claude Code sessions ({home / '.claude' / 'projects'})")) \
        .to_be_visible()
    expect(page.get_by_text(REMOTE_FOLDERS)).to_have_count(0)
