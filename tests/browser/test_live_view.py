"""The Live page in a real browser: a log the test appends to while the page is open shows its new calls
without a reload, and the page's own record of its reads shows each one starting where the last ended
(never from the start again), a half-written line left for the next read included."""

import re
from pathlib import Path

import pytest
from browser_helpers import expect_no_exception, follow_live, screenshot, wait_idle
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

CASE = Path(__file__).resolve().parents[1] / "live" / "cases" / "claude_code_growing.jsonl"
LINES = CASE.read_bytes().splitlines(keepends=True)
WAIT_MS = 60_000  # for the fragment's next run (every 2 s): a bound on a hang, not a timed assertion


def append(path: Path, data: bytes) -> int:
    with open(path, "ab") as handle:
        handle.write(data)
    return path.stat().st_size


def reads(page) -> list[tuple[int, int]]:
    text = page.locator("[data-testid='stCaptionContainer']", has_text="Reads of the file").inner_text()
    return [(int(a.replace(",", "")), int(b.replace(",", ""))) for a, b in re.findall(r"bytes ([\d,]+) to ([\d,]+)", text)]


def test_the_live_view_shows_new_calls_without_a_reload(app_page, tmp_path):
    page = app_page
    log = tmp_path / "5f0e2c1a-7b3d-4e8f-9a21-3c4d5e6f7a80.jsonl"
    first = append(log, b"".join(LINES[:9]))
    follow_live(page, log)
    calls = page.locator("[data-testid='stMetric']", has_text="Model calls").locator("[data-testid='stMetricValue']")
    expect(calls).to_have_text("2", timeout=WAIT_MS)
    reads_caption = page.locator("[data-testid='stCaptionContainer']", has_text="Reads of the file")
    expect(reads_caption).to_contain_text(f"read 1: bytes 0 to {first:,}")
    page.evaluate("window.__not_reloaded = true")  # gone if the page were loaded again

    # the agent writes on: six more calls, then half a line
    second = append(log, b"".join(LINES[9:24]))
    expect(calls).to_have_text("8", timeout=WAIT_MS)
    expect(page.get_by_text("before the next call").first).to_be_visible()
    half = len(LINES[24]) // 2
    append(log, LINES[24][:half])
    expect(reads_caption).to_contain_text(f"bytes {second:,} to {second:,} (0 new lines, {half:,} bytes of a line "
                                          "not finished)", timeout=WAIT_MS)
    end = append(log, LINES[24][half:] + b"".join(LINES[25:]))
    expect(calls).to_have_text("11", timeout=WAIT_MS)
    expect(reads_caption).to_contain_text(f"to {end:,}", timeout=WAIT_MS)
    screenshot(page, "live_view")

    assert page.evaluate("window.__not_reloaded") is True
    found = reads(page)
    assert found[0] == (0, first) and found[-1][1] == end
    assert all(later[0] == earlier[1] for earlier, later in zip(found, found[1:], strict=False)), found
    expect(reads_caption).to_contain_text("Read from the start again: 0 times")
    expect(page.locator("[data-testid='stMetric']", has_text="Model calls")).to_contain_text("1 compaction")
    expect_no_exception(page)
    wait_idle(page)
