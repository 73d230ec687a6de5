"""Real-browser fixtures: the app served by `streamlit run` on a free port, and Debian's chromium.

Fixtures: `streamlit_server` (session; a browser_helpers.StreamlitServer running app.py), `streamlit_url`
(its URL), `chromium_browser` (session; a Playwright Browser), `page` (a fresh page; screenshot saved at
teardown when the test failed), `app_page` (`page` opened on the app, its first run finished),
`generated_log` (session; a generated Claude Code log with a compaction of its own).
Locally a missing chromium skips with the reason; under CI=true it fails, so CI never passes by skipping.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from browser_helpers import (
    CHROMIUM,
    REPO_ROOT,
    browser_unavailable,
    screenshot,
    start_streamlit,
    wait_idle,
)

HERE = Path(__file__).parent
EXPECT_TIMEOUT_MS = 20_000


def pytest_collection_modifyitems(items):
    # Everything under tests/browser is a browser test, even when its file forgets the mark.
    for item in items:
        if HERE in Path(item.path).parents:
            item.add_marker(pytest.mark.browser)


def _require_browser() -> None:
    reason = browser_unavailable()
    if reason is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests must run under CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def streamlit_server():
    _require_browser()
    server = start_streamlit()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def streamlit_url(streamlit_server) -> str:
    return streamlit_server.url


@pytest.fixture(scope="session")
def chromium_browser():
    _require_browser()
    from playwright.sync_api import expect, sync_playwright

    # Playwright's 5 s for an expect is short for a page that replays a session on a loaded 2-core machine
    # (seen: the time pages' first chart under two busy cores); a real failure still fails, only later.
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
        yield browser
        browser.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test, so that `page` knows at teardown whether the test failed."""
    report = yield
    item.stash.setdefault(_FAILED, False)
    item.stash[_FAILED] = item.stash[_FAILED] or report.failed
    return report


_FAILED = pytest.StashKey[bool]()


@pytest.fixture
def page(chromium_browser, request):
    """A fresh page; when the test failed, a full-page screenshot of it is saved under test-output/browser/
    at teardown (for a passing test it would only cost time: about a second for a long page)."""
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 900})
    new_page = context.new_page()
    yield new_page
    try:
        if request.node.stash.get(_FAILED, False):
            screenshot(new_page, re.sub(r"[^\w.-]+", "_", request.node.name))
    finally:
        context.close()


@pytest.fixture
def app_page(page, streamlit_server):
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    page.goto(streamlit_server.url)
    try:
        wait_idle(page)
    except PlaywrightTimeoutError:
        pytest.fail(f"the app's first run did not finish; server output:\n{streamlit_server.log_tail()}")
    if page.locator("[data-test-script-state='compilationError']").count():
        pytest.fail(f"the app does not compile:\n{page.get_by_role('dialog').inner_text()}")
    return page


@pytest.fixture(scope="session")
def generated_log(tmp_path_factory) -> Path:
    """A Claude Code log written by `python -m compaction generate`, as a user would make one: 400 calls, one
    compaction of its own, and a session the agent without compaction cannot finish (it stops at call 261)."""
    path = tmp_path_factory.mktemp("generated") / "generated_claude_code.jsonl"
    done = subprocess.run([sys.executable, "-m", "compaction", "generate", "--format", "claude-code", "--turns",
                           "400", "--seed", "3", "-o", str(path)], cwd=REPO_ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return path
