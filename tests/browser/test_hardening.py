"""Hardening in a real browser, on one server of its own (store root in a temporary folder, the Anthropic
API replaced by tests/fake_anthropic.py through ANTHROPIC_BASE_URL, Streamlit logging at debug level):

- load: 8 concurrent browser contexts in one chromium each upload a conversation and move sliders; every
  value shown is compared with the engine's; latency p50/p95/max and the server's peak RSS are printed;
- secrets: an API key typed in the sidebar drives a real Claude summary (against the fake API) and then
  appears nowhere: page HTML and input values on every page, URL, browser storage, downloads, the
  store's files (transcripts, persisted outputs), error messages, or the server's log.
"""

import re
import secrets
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from browser_helpers import (
    CHROMIUM,
    REPO_ROOT,
    expect_no_exception,
    open_nav_page,
    start_streamlit,
    wait_idle,
)
from playwright.sync_api import expect

from tests.fake_anthropic import FakeAnthropic

sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
from bench_load import run_load  # noqa: E402

pytestmark = pytest.mark.browser

LOAD_SESSIONS = 8
PAGES = ("Conversation", "Pipeline", "What changed", "Persisted outputs")


@pytest.fixture(scope="module")
def fake_api():
    server = FakeAnthropic()
    yield server
    server.close()


@pytest.fixture(scope="module")
def hardened_server(fake_api, tmp_path_factory, chromium_browser):
    """`streamlit run app.py` with its own store root and the fake API; (server, store root).

    Asks for `chromium_browser` so that a machine without chromium skips (or, under CI, fails) here
    like every other browser test, before a server is started."""
    store_root = tmp_path_factory.mktemp("hardening-sessions")
    patch = pytest.MonkeyPatch()
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"):
        patch.delenv(name, raising=False)
    patch.setenv("ANTHROPIC_BASE_URL", fake_api.url)
    patch.setenv("ANTHROPIC_CONFIG_DIR", str(tmp_path_factory.mktemp("anthropic-config")))
    patch.setenv("COMPACTION_STORE_ROOT", str(store_root))
    patch.setenv("STREAMLIT_LOGGER_LEVEL", "debug")  # the most the server would ever write
    try:
        server = start_streamlit()
    finally:
        patch.undo()
    yield server, store_root
    server.stop()


def test_eight_concurrent_sessions_get_correct_results(hardened_server, tmp_path):
    server, _ = hardened_server
    # Playwright's async API runs in a thread of its own: the session's sync browser owns this one.
    with ThreadPoolExecutor(1) as pool:
        report = pool.submit(run_load, server.url, server.proc.pid, tmp_path, LOAD_SESSIONS, 60, CHROMIUM).result()
    print("\n" + report.summary())
    assert report.checked == LOAD_SESSIONS * 5  # upload + 4 slider moves, each value as the engine computes it
    assert all(len(values) == LOAD_SESSIONS for values in report.latencies.values())
    assert report.peak_rss_bytes > 0
    assert "Traceback" not in server.log_tail(1_000_000)


def open_page(page, link: str) -> None:
    open_nav_page(page, link, link)
    expect_no_exception(page)


def _everything_the_browser_holds(page) -> list[str]:
    """HTML, input values, URL and storage of every page."""
    seen = []
    for link in PAGES:
        open_page(page, link)
        seen += [page.content(), page.url,
                 "\n".join(page.eval_on_selector_all("input, textarea", "els => els.map(e => e.value)")),
                 page.evaluate("() => JSON.stringify({...localStorage}) + JSON.stringify({...sessionStorage})")]
    seen.append(str(page.context.cookies()))
    return seen


def _download(page, button: str) -> bytes:
    with page.expect_download() as info:
        page.get_by_role("button", name=button).click()
    return Path(info.value.path()).read_bytes()


def test_a_typed_api_key_never_leaks(hardened_server, fake_api, page):
    server, store_root = hardened_server
    key = f"sk-ant-api03-HARDENING-{secrets.token_hex(16)}"
    # straight to the page with the setting in the address: the shared-link way in
    page.goto(f"{server.url}/what_changed?CONTEXT_LIMIT=5000")
    wait_idle(page)
    expect(page.locator("h1", has_text="What changed")).to_be_visible()
    expect(page.locator("[data-testid='stSlider']").filter(has_text="CONTEXT_LIMIT")).to_contain_text("5,000")
    sidebar = page.locator("[data-testid='stSidebar']")
    sidebar.get_by_text("Claude", exact=True).click()
    wait_idle(page)
    field = sidebar.get_by_label("Anthropic API key", exact=True)
    field.fill(key)
    field.press("Enter")
    wait_idle(page)
    expect(sidebar.get_by_text("An API key is set for your workspace only")).to_be_visible()

    fake_api.reply("## Current goal\nFinish the refactor.\n## Remaining work\nRun the tests.")
    sidebar.get_by_role("button", name="Summarise with Claude").click()
    wait_idle(page)
    expect(sidebar.get_by_text("Claude wrote the L4 summary")).to_be_visible(timeout=60_000)
    used = [request for request in fake_api.requests if request.path == "/v1/messages"]
    assert used and used[-1].api_key == key  # the key really went to the API, and only there
    expect(page.get_by_text("Finish the refactor.")).to_be_visible()
    exported = _download(page, "Download the compacted conversation (JSON)")
    assert b"Finish the refactor." in exported

    fake_api.error(401, "invalid x-api-key")  # the error path: its message is shown to the user
    sidebar.get_by_role("button", name="Summarise with Claude").click()
    alert = sidebar.locator("[data-testid='stAlert']")
    expect(alert).to_contain_text(re.compile("401|invalid x-api-key"), timeout=60_000)
    shown_error = alert.inner_text()

    open_page(page, "Persisted outputs")
    persisted = _download(page, "Download this output")
    places = {"browser": "\n".join(_everything_the_browser_holds(page)),
              "error shown": shown_error,
              "downloads": (exported + persisted).decode(errors="replace"),
              "server log": server.log_path.read_text(errors="replace")}
    store_files = [path for path in store_root.rglob("*") if path.is_file()]
    assert any(path.parent.name == "transcripts" for path in store_files)  # L4 wrote its transcript
    places["store files"] = "\n".join(path.read_text(errors="replace") + str(path) for path in store_files)
    assert "Summarise with Claude" in places["browser"] and "sessions" in places["store files"]
    for where, text in places.items():
        assert key not in text, f"the API key appears in the {where}"
        assert key[len("sk-ant-api03-"):] not in text, f"part of the API key appears in the {where}"
