"""In a real browser: an Aider history uploaded under the name aider.chat.history.md is read (the uploader
takes any file: it once refused it, "text/markdown files are not allowed"); the history's three runs are
offered by the picker and one of them is shown; a reload shows the same upload and the same run, named in
the address by the file's content hash. The history (tests/importers/sessions/aider_three_runs.md) is
written by hand in the layout of Aider 0.86's histories."""

import hashlib
import re
import shutil
from pathlib import Path

import pytest
from browser_helpers import expect_no_exception, upload, wait_idle
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
HISTORY = Path(__file__).resolve().parents[1] / "importers" / "sessions" / "aider_three_runs.md"
RUNS = ("run 1, started 2026-04-07 08:12:40", "run 2, started 2026-04-07 10:03:55", "run 3, started 2026-04-08 09:20:11")
PICKER = "This file holds 3 sessions: show one of them"


@pytest.fixture
def history(tmp_path) -> Path:
    path = tmp_path / "aider.chat.history.md"
    shutil.copy(HISTORY, path)
    return path


def test_an_aider_history_uploads_offers_its_three_runs_and_survives_a_reload(app_page, history):
    page = app_page
    upload(page, history)
    expect(page.get_by_text("could not be read")).to_have_count(0)
    digest = hashlib.sha256(history.read_bytes()).hexdigest()
    expect(page).to_have_url(re.compile(f"upload={digest}"))

    picker = page.get_by_label(PICKER)
    picker.click()
    options = page.get_by_role("option")
    expect(options).to_have_count(4)
    assert options.all_inner_texts()[1:] == list(RUNS)
    page.get_by_role("option", name=RUNS[1]).click()
    wait_idle(page)
    shown = f"Loaded: aider.chat.history.md [{RUNS[1]}]"
    expect(page.locator("h2", has_text=shown)).to_be_visible(timeout=60_000)
    expect(page).to_have_url(re.compile(f"upload={digest}&session=29|session=29&upload={digest}"))

    page.reload()
    wait_idle(page)
    expect(page.locator("h2", has_text=shown)).to_be_visible(timeout=60_000)
    expect(page.get_by_label(PICKER)).to_be_visible()
    expect_no_exception(page)


def test_an_evaluation_output_of_three_runs_offers_each_run(app_page, tmp_path):
    path = tmp_path / "output.jsonl"
    shutil.copy(HISTORY.parents[1] / "cases" / "valid" / "openhands_output_metrics.jsonl", path)
    page = app_page
    upload(page, path)
    page.get_by_label(PICKER).click()
    options = page.get_by_role("option")
    expect(options).to_have_count(4)
    assert options.all_inner_texts()[1:] == ["textkit__textkit-17", "dates__dates-4", "pkg__pkg-2"]
    page.get_by_role("option", name="pkg__pkg-2").click()
    wait_idle(page)
    expect(page.locator("h2", has_text="Loaded: output.jsonl [pkg__pkg-2]")).to_be_visible(timeout=60_000)
    expect_no_exception(page)
