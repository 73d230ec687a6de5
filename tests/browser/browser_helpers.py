"""Starting the Streamlit app for browser tests, and waiting for it in the page.

Kept out of conftest.py so tests (and benchmarks) can import it: `from browser_helpers import wait_idle`.
"""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from sample_data import TITLES

REPO_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
OUTPUT_DIR = REPO_ROOT / "test-output" / "browser"
# A run ends 'notRunning', or 'compilationError' when the script does not even compile.
IDLE = ", ".join(f"[data-testid='stApp'][data-test-script-state='{state}']"
                 for state in ("notRunning", "compilationError"))


@dataclass
class StreamlitServer:
    proc: subprocess.Popen
    url: str
    log_path: Path

    def log_tail(self, chars: int = 3000) -> str:
        return self.log_path.read_text(errors="replace")[-chars:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


# how many cells of the page's heatmap hold a value (Tune draws its grid as it fills)
CELLS_ON_SCREEN = """() => {
    for (const plot of document.querySelectorAll("[data-testid='stPlotlyChart'] .js-plotly-plot")) {
        const trace = plot.data && plot.data[0];
        if (trace && trace.type === "heatmap") {
            return trace.z.flat().filter(v => v !== null && !Number.isNaN(v)).length;
        }
    }
    return 0;
}"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def browser_unavailable() -> str | None:
    """Why a real-browser test cannot run here, or None when it can."""
    if not os.access(CHROMIUM, os.X_OK):
        return f"chromium not found at {CHROMIUM} (apt-get install -y chromium, or set CHROMIUM)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -r requirements-dev.txt)"
    return None


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
            return reply.read().strip() == b"ok"
    except OSError:
        return False


def start_streamlit(cwd: Path = OUTPUT_DIR, timeout: float = 60.0, cpus: str | None = None,
                    address: str = "127.0.0.1", env: dict | None = None) -> StreamlitServer:
    """Start the dashboard as a user does, with the installed `compaction-lab` command (from `cwd`, not
    the checkout: it must work from any folder), headless on a free port; return it once
    /_stcore/health says ok.

    The server's output goes to test-output/browser/streamlit-<port>.log (a pipe could fill and stall
    it); its tail is in the error when the server does not come up. ANTHROPIC_API_KEY is removed so the
    app is tested as a user without a key sees it. `cpus` ("0") pins the server to those cores (taskset).
    `address` is where it listens (its URL stays on 127.0.0.1); `env` adds to its environment (None: removed).
    """
    launcher = Path(sys.executable).with_name("compaction-lab")
    if not launcher.is_file():
        raise RuntimeError(f"no {launcher.name} command beside {sys.executable}: pip install -e '.[app]'")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    cwd.mkdir(parents=True, exist_ok=True)
    log_path = OUTPUT_DIR / f"streamlit-{port}.log"
    env = {k: v for k, v in (os.environ | (env or {})).items() if k != "ANTHROPIC_API_KEY" and v is not None}
    command = (["taskset", "-c", cpus] if cpus else []) + [str(launcher), "--server.headless", "true",
               "--server.port", str(port), "--server.address", address,
               "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    with open(log_path, "wb") as log:
        server = StreamlitServer(subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT),
                                 url, log_path)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if _healthy(url):
            return server
        if server.proc.poll() is not None:
            break
        time.sleep(0.25)
    exited = server.proc.poll()
    server.stop()
    state = f"exited with status {exited}" if exited is not None else f"was not healthy after {timeout:.0f} s"
    raise RuntimeError(f"{launcher.name} {state} on {url}. Its output:\n{server.log_tail()}")


def wait_idle(page, timeout_ms: float = 30_000) -> None:
    """Wait until the app's script has finished its run (Streamlit marks stApp with the script state).

    Call it after every interaction. The state may still read 'notRunning' for a moment after the
    action, before the rerun starts, so assert on the changed content with Playwright's auto-waiting
    `expect(...)` rather than reading it once right after this returns.
    """
    page.wait_for_selector(IDLE, state="attached", timeout=timeout_ms)


def screenshot(page, name: str) -> Path:
    """Save a full-page PNG under test-output/browser/ and return its path."""
    OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    path = OUTPUT_DIR / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def open_nav_page(page, link: str, title: str) -> None:
    """Click `link` in the sidebar's navigation and wait for the page titled `title`."""
    from playwright.sync_api import expect

    page.locator("[data-testid='stSidebarNav'] a", has_text=link).click()
    wait_idle(page)
    expect(page.locator("h1", has_text=title)).to_be_visible()


PIPELINE_CHOICE = "the tutorial pipeline's settings (the sidebar's)"


def open_tune(page, timeout_ms: float = 120_000) -> None:
    """Open Tune on the tutorial pipeline's grid (chosen when the log's agent has knobs of its own, which
    Tune starts from) and wait for it to be whole: while it fills, each batch of cells redraws the heatmap
    (a new element), so a locator taken then may be detached before it is used. "Apply to the sidebar"
    is drawn only after the last cell."""
    from playwright.sync_api import expect

    open_nav_page(page, "Tune", "Tune")
    choice = page.get_by_role("radio", name=PIPELINE_CHOICE)
    if choice.count() and not choice.is_checked():
        page.get_by_text(PIPELINE_CHOICE).click()
        wait_idle(page, timeout_ms)
    expect(page.get_by_role("button", name="Apply to the sidebar")).to_be_visible(timeout=timeout_ms)
    wait_idle(page, timeout_ms)


def open_agent_tune(page, agent_title: str, timeout_ms: float = 120_000) -> None:
    """Open Tune on a log of a known agent and wait for the sweep of its own knobs to be whole: the export
    of the picked point ("Take it to <agent>") is drawn only after the last cell."""
    from playwright.sync_api import expect

    open_nav_page(page, "Tune", "Tune")
    expect(page.get_by_text(f"Take it to {agent_title}:")).to_be_visible(timeout=timeout_ms)
    wait_idle(page, timeout_ms)


def settled_box(locator, timeout_s: float = 30.0) -> dict:
    """The bounding box of `locator` once it has stopped moving: a chart drawn 'stretch' is resized after
    it is first drawn (later on a busy machine), so a box read at once can be off by a column."""
    deadline, last = time.monotonic() + timeout_s, None
    while True:
        box = locator.bounding_box()
        if box is not None and box == last:
            return box
        if time.monotonic() > deadline:
            raise AssertionError(f"{locator} kept moving for {timeout_s:.0f} s: {last} then {box}")
        last = box
        locator.page.wait_for_timeout(250)


def expect_no_exception(page) -> None:
    from playwright.sync_api import expect

    expect(page.locator("[data-testid='stException']")).to_have_count(0)


def load_sample(page, title_part: str) -> None:
    """Load the bundled sample whose title (sample_data.TITLES) holds `title_part`, on the Conversation page."""
    page.get_by_role("tab", name="Bundled sample").click()
    wait_idle(page)
    page.locator("[data-testid='stSelectbox']").first.click()
    page.get_by_role("option", name=title_part, exact=False).click()
    wait_idle(page)
    page.get_by_role("button", name="Load this sample").click()
    wait_idle(page)
    # the run may not have started when wait_idle looked: a page opened now would show the sample before
    from playwright.sync_api import expect

    name = next(name for name, title in TITLES.items() if title_part in title)
    expect(page.locator("h2", has_text=f"Loaded: {name}")).to_be_visible(timeout=60_000)


def upload(page, path: Path) -> None:
    """Upload `path` on the Conversation page and wait until it is the loaded conversation."""
    from playwright.sync_api import expect

    page.get_by_role("tab", name="Upload a file").click()
    wait_idle(page)
    page.locator("[data-testid='stFileUploader'] input[type='file']").set_input_files(str(path))
    wait_idle(page)
    expect(page.get_by_text(f"Loaded: {path.name}")).to_be_visible(timeout=60_000)


def follow_live(page, path: Path) -> None:
    """Open the Live page and follow the log at `path` (typed in the Session file field)."""
    open_nav_page(page, "Live", "Live")
    field = page.get_by_role("textbox", name="Session file")
    field.fill(str(path))
    field.press("Enter")
    wait_idle(page)
    page.get_by_role("button", name="Follow", exact=True).click()


def metric(page, label: str):
    """The metric whose label is exactly `label`: its value is .locator('[data-testid=stMetricValue]')."""
    import re

    return page.locator("[data-testid='stMetric']").filter(
        has=page.locator("[data-testid='stMetricLabel']", has_text=re.compile(f"^{re.escape(label)}$")))


def read_folder(page, folder: Path, sessions: int) -> None:
    """On the Sessions page: type `folder`, read it, and wait until its `sessions` rows are analysed."""
    from playwright.sync_api import expect

    open_nav_page(page, "Sessions", "Sessions")
    page.get_by_role("textbox", name="Folder").fill(str(folder))
    page.get_by_role("textbox", name="Folder").press("Enter")
    wait_idle(page)
    page.get_by_role("button", name="Read this folder").click()
    expect(page.get_by_text(f"Analysed {sessions} sessions")).to_be_visible(timeout=120_000)
    wait_idle(page)
