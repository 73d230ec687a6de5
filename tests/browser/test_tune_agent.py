"""Tune in a real browser on a Codex CLI rollout: it starts from Codex's own auto-compact limit, drawn as a
line, and a click on a point exports that limit in Codex's config.toml, on show and as the download."""

import tomllib

import pytest
from browser_helpers import expect_no_exception, open_agent_tune, screenshot, settled_box, upload, wait_idle
from playwright.sync_api import expect

from tests.app.codex_rollout import write_rollout

pytestmark = pytest.mark.browser
CHART = "[data-testid='stPlotlyChart']"


def test_a_codex_log_tunes_its_limit_and_exports_a_clicked_point_as_config_toml(app_page, tmp_path):
    page = app_page
    upload(page, write_rollout(tmp_path / "rollout-2026-04-01T00-00-00-019d47a1.jsonl"))
    open_agent_tune(page, "Codex CLI")
    expect(page.get_by_role("radio", name="Codex CLI's own settings (auto_compact_token_limit)")).to_be_checked()
    line = page.locator(CHART).first
    expect(line.locator(".g-xtitle")).to_have_text("auto_compact_token_limit")
    limits = [int(text.replace(",", "")) for text in line.locator("g.xtick text").all_text_contents()]
    assert limits == sorted(limits) and len(limits) >= 5
    panel = page.locator("[data-testid='stExpander']", has_text="Use these settings")
    code = panel.locator("[data-testid='stCode']").first
    expect(code).to_contain_text(f"model_auto_compact_token_limit = {limits[-1]}")  # Codex's own, at first

    column = 1  # compacting early: not the agent's own limit
    point = line.locator(".scatterlayer .trace").first.locator("path.point").nth(column)
    point.scroll_into_view_if_needed()
    box = settled_box(point)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_idle(page)
    expect(code).to_contain_text(f"model_auto_compact_token_limit = {limits[column]}")
    expect(page.get_by_text(f"auto_compact_token_limit {limits[column]:,} (a cost of")).to_be_visible()
    with page.expect_download() as download:
        panel.get_by_role("button", name="Download config.toml").click()
    saved = tmp_path / "config.toml"
    download.value.save_as(saved)
    assert download.value.suggested_filename == "config.toml"
    assert tomllib.loads(saved.read_text())["model_auto_compact_token_limit"] == limits[column]
    screenshot(page, "tune-codex-line")
    expect_no_exception(page)
