"""Issue 38 in a real browser: a Crush database (SQLite, named crush.db) is accepted by the upload and
loads as Crush, a Cursor transcript loads with its warning, and JSON lines of no known format are told
what the lab reads."""

import pytest
from browser_helpers import REPO_ROOT, upload, wait_idle
from browser_helpers import expect_no_exception as no_exception
from playwright.sync_api import expect

from tests.importers.crush.build_db import build

pytestmark = pytest.mark.browser

CURSOR = REPO_ROOT / "tests" / "importers" / "cases" / "valid" / "cursor_agent_transcript.jsonl"


def test_a_crush_database_and_a_cursor_transcript_load_and_an_unknown_file_is_told(app_page, tmp_path):
    page = app_page
    folder = tmp_path / ".crush"
    folder.mkdir()
    upload(page, build(folder / "crush.db"))
    expect(page.get_by_text("Crush", exact=True).first).to_be_visible()
    expect(page.get_by_text("the database holds 2 sessions", exact=False).first).to_be_visible()
    no_exception(page)

    upload(page, CURSOR)
    expect(page.get_by_text("records no model and no usage", exact=False).first).to_be_visible()
    no_exception(page)

    unknown = tmp_path / "events.jsonl"
    unknown.write_text('{"event": "start", "at": 1}\n{"event": "stop", "at": 2}\n', encoding="utf-8")
    page.locator("[data-testid='stFileUploader'] input[type='file']").set_input_files(str(unknown))
    wait_idle(page)
    expect(page.get_by_test_id("stAlert").filter(has_text="no format the lab reads recognises it")).to_contain_text(
        "events.jsonl: JSON lines with the keys 'at', 'event'")
    no_exception(page)
