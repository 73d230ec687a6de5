"""The "Use these settings" panel in a real browser: opened on the Tune page, the Python module is on show to
copy and its download is the module, which runs on the seed's demo with the standard library alone."""

import subprocess
import sys

import pytest
from browser_helpers import expect_no_exception as no_exception
from browser_helpers import open_tune, wait_idle
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_the_tune_page_gives_the_module_to_copy_and_download(app_page, tmp_path):
    open_tune(app_page)
    app_page.get_by_text("Use these settings").click()
    wait_idle(app_page)
    panel = app_page.locator("[data-testid='stExpander']", has_text="Use these settings")
    expect(panel.get_by_role("tab", name="Standalone Python module")).to_be_visible()
    expect(panel.locator("[data-testid='stCode']").first).to_contain_text("CONTEXT_LIMIT = 50_000")
    with app_page.expect_download() as download:
        panel.get_by_role("button", name="Download compaction_settings.py").click()
    assert download.value.suggested_filename == "compaction_settings.py"
    module = tmp_path / "compaction_settings.py"
    download.value.save_as(module)
    seed = tmp_path / "seed.json"
    done = subprocess.run([sys.executable, "-m", "compaction", "sample", "seed-demo", "-o", str(seed)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    ran = subprocess.run([sys.executable, "-I", "-S", str(module), str(seed)], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.splitlines()[0].strip().startswith("input: 697.42 KB, 123 messages")
    panel.get_by_role("tab", name="Compaction Lab's compacting client").click()
    expect(panel.get_by_text("strategy='pipeline'")).to_be_visible()
    no_exception(app_page)
