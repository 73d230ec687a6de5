"""Issue 20 in a real browser, on the bundled long Claude Code sample and on a generated Claude Code log with
its own compaction (uploaded): Replay and Compare compare the same calls and say which; Compare draws the
recorded line and the log's compactions and follows the sidebar; Tune's axes are in tokens up to the model
window, through the log's own compaction point; a click on a Tune cell survives "Apply to the sidebar".

Every figure expected is the engine's own, for the file the page shows (replay() with the sidebar's settings).
"""

import functools
import json

import pytest
from browser_helpers import (
    REPO_ROOT,
    load_sample,
    metric,
    open_nav_page,
    open_tune,
    settled_box,
    upload,
    wait_idle,
)
from browser_helpers import expect_no_exception as no_exception
from playwright.sync_api import expect

from compaction.importers import load_conversation
from compaction.model.history import prepare
from compaction.model.settings import Settings
from compaction.replay.loop import replay
from dashboard.render import tune_axes
from dashboard.render.compare_table import NO_COMPACTION, THE_LOG
from dashboard.render.time_charts import BOUNDARY_NAME, RECORDED_NAME
from dashboard.render.units import dollars, percent

pytestmark = pytest.mark.browser

LONG_SAMPLE = REPO_ROOT / "sample_data" / "claude_code_long_session.jsonl"
LONG_TITLE = "A long Claude Code session"
LOGS = ("long sample", "generated log")
CHART = "[data-testid='stPlotlyChart']"
# the rows of an st.table as {column heading: cell text}
TABLE_ROWS = """table => { const heads = [...table.querySelectorAll('thead th')].map(th => th.innerText.trim());
    return [...table.querySelectorAll('tbody tr')].map(tr => Object.fromEntries(
        [...tr.querySelectorAll('th, td')].map((cell, i) => [heads[i], cell.innerText.trim()]))); }"""


@pytest.fixture(params=LOGS)
def log_on_page(request, app_page, generated_log):
    """(page, path): the app with the long sample loaded, or with the generated log uploaded."""
    if request.param == "long sample":
        load_sample(app_page, LONG_TITLE)
        expect(app_page.get_by_text(f"Loaded: {LONG_SAMPLE.name}")).to_be_visible()
        return app_page, LONG_SAMPLE
    upload(app_page, generated_log)
    return app_page, generated_log


@functools.cache
def engine(path, **settings) -> dict:
    """The totals the engine gives for `path` at the sidebar's settings (the defaults, but for `settings`)."""
    return replay(load_conversation(path), Settings(**settings), keep_histories=False).totals


def pre_tokens(path) -> int:
    """What the log's context held when the agent first compacted itself: its boundary's preTokens."""
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("subtype") == "compact_boundary":
            return record["compactMetadata"]["preTokens"]
    raise AssertionError(f"{path.name} never compacted itself")


def table_rows(page, heading: str) -> dict[str, dict[str, str]]:
    """The st.table under the subheading `heading`, by strategy."""
    table = page.locator(f"xpath=//h3[contains(., '{heading}')]/following::*[@data-testid='stTable'][1]")
    expect(table.locator("tbody tr").first).to_be_visible()
    return {row["strategy"]: row for row in table.evaluate(TABLE_ROWS)}


def ticks(chart, axis: str) -> list[str]:
    return chart.locator(f"g.{axis}tick text").all_text_contents()


def test_replay_and_compare_compare_the_same_calls_and_say_which(log_on_page):
    page, path = log_on_page
    totals = engine(path)
    calls, compared = totals["calls"], totals["compared_calls"]
    assert compared < calls  # the uncompacted agent stops: the case where like for like matters
    compared_calls = f"calls 1–{compared:,}"

    open_nav_page(page, "Replay", "Replay")
    main = page.get_by_test_id("stMainBlockContainer")
    expect(main.get_by_text(f"Without compaction the agent stops at call {compared + 1:,} of {calls:,}")).to_be_visible()
    expect(main.get_by_text(f"costs are compared over {compared_calls}, the calls both could make")).to_be_visible()
    expect(main.get_by_text(f"Compared: {compared_calls}, the calls both could make")).to_be_visible()
    cost = metric(page, "Cost (compared)")
    expect(cost.get_by_test_id("stMetricValue")).to_have_text(dollars(totals["cost_usd_compared"]))
    expect(cost.get_by_test_id("stMetricDelta")).to_have_text(f"{dollars(totals['raw_cost_usd'])} without compaction")
    expect(metric(page, "Saved vs no compaction").get_by_test_id("stMetricValue")).to_have_text(
        percent(totals["saved_share"]))
    whole = metric(page, "No compaction (all calls)")  # no figure past the stop, where it cannot go
    expect(whole.get_by_test_id("stMetricValue")).to_have_text("n/a")
    expect(whole.get_by_test_id("stMetricDelta")).to_have_text(f"stops at call {compared + 1:,}")
    expect(metric(page, "What it cost (log)").get_by_test_id("stMetricValue")).to_have_text(
        dollars(totals["recorded_cost_usd"]))
    no_exception(page)

    open_nav_page(page, "Compare", "Compare strategies")
    expect(page.get_by_test_id("stMainBlockContainer").get_by_text(
        f"Without compaction the agent stops at call {compared + 1:,} of {calls:,}")).to_be_visible()
    rows = table_rows(page, "Tokens and cost")
    pipeline, none = rows["Tutorial pipeline"], rows[NO_COMPACTION]
    # the same figures as Replay's, over the same calls, named in the headings
    assert pipeline[f"cost, {compared_calls}"] == dollars(totals["cost_usd_compared"])
    assert pipeline[f"saved vs no compaction, {compared_calls}"] == percent(totals["saved_share"])
    assert pipeline[f"tokens sent, {compared_calls}"] == f"{totals['tokens_sent_compared']:,}"
    assert none[f"cost, {compared_calls}"] == dollars(totals["raw_cost_usd"])
    assert none[f"tokens sent, {compared_calls}"] == f"{totals['raw_tokens_sent']:,}"
    assert none[f"cost, all {calls:,} calls"] == f"n/a past call {compared:,}"
    assert pipeline[f"cost, all {calls:,} calls"] == dollars(totals["cost_usd"])
    no_exception(page)


def test_compare_shows_the_log_beside_the_what_ifs_and_follows_the_sidebar(log_on_page):
    page, path = log_on_page
    totals = engine(path)
    open_nav_page(page, "Compare", "Compare strategies")
    legend = page.locator(CHART).first.locator(".legendtext")
    expect(legend.filter(has_text=RECORDED_NAME)).to_have_count(1)  # the recorded line
    expect(legend.filter(has_text=BOUNDARY_NAME)).to_have_count(1)  # the log's own compaction points
    rows = table_rows(page, "Tokens and cost")
    assert list(rows)[:3] == [THE_LOG, NO_COMPACTION, "As recorded"]
    assert rows[THE_LOG][f"cost, all {totals['calls']:,} calls"] == dollars(totals["recorded_cost_usd"])
    compared = f"tokens sent, calls 1–{totals['compared_calls']:,}"
    assert rows["Tutorial pipeline"][compared] == f"{totals['tokens_sent_compared']:,}"

    page.get_by_role("slider", name="KEEP_RECENT (tool results)").focus()
    page.keyboard.press("Home")  # 3 -> 0: no tool result kept whole
    wait_idle(page)
    expect(page.get_by_role("spinbutton", name="KEEP_RECENT: exact value")).to_have_value("0")
    moved = engine(path, keep_recent=0)
    assert moved["tokens_sent_compared"] != totals["tokens_sent_compared"]
    row = page.locator("[data-testid='stTable']").first.locator("tr", has_text="Tutorial pipeline")
    expect(row).to_contain_text(f"{moved['tokens_sent_compared']:,}")
    expect(row).to_contain_text(dollars(moved["cost_usd"]))
    # the row now names the sidebar's change beside the title ("Tutorial pipeline · keep_recent 0", say)
    moved_rows = {name: row for name, row in table_rows(page, "Tokens and cost").items()
                  if name.startswith("Tutorial pipeline")}
    assert len(moved_rows) == 1, list(moved_rows)
    assert next(iter(moved_rows.values()))[compared] == f"{moved['tokens_sent_compared']:,}"
    no_exception(page)


def test_tune_has_token_axes_up_to_the_window_through_the_logs_compaction_point(log_on_page):
    page, path = log_on_page
    open_tune(page)
    expect(page.get_by_role("radio", name="tokens (calibrated on this log)")).to_be_checked()
    heatmap = page.locator(CHART).first
    expect(heatmap.locator(".g-xtitle")).to_have_text("CONTEXT_LIMIT (tokens, with the overhead)")
    values = [int(text.replace(",", "")) for text in ticks(heatmap, "x")]
    point = pre_tokens(path)
    assert values == sorted(values) and values[-1] == 200_000  # up to the model window
    assert values[0] < point < values[-1] and round(point, -3) in values  # the log's own point is a column
    expect(page.get_by_text(f"and compacted at {point:,} tokens")).to_be_visible()  # the one regime sentence
    no_exception(page)


def test_a_tune_cell_click_survives_apply_to_the_sidebar(app_page):
    page = app_page
    load_sample(page, LONG_TITLE)
    open_tune(page)
    heatmap = page.locator(CHART).first
    heatmap.scroll_into_view_if_needed()
    expect(heatmap.locator("g.xtick text").first).to_be_visible()
    x_labels, y_labels = ticks(heatmap, "x"), ticks(heatmap, "y")
    column, row = 3, 2  # 80,000 tokens and max_messages 200: not the sidebar's cell
    x_tick = settled_box(heatmap.locator("g.xtick text").nth(column))
    y_tick = settled_box(heatmap.locator("g.ytick text").nth(row))
    context_limit = page.get_by_role("spinbutton", name="CONTEXT_LIMIT: exact value")
    expect(context_limit).to_have_value("50000")
    page.mouse.click(x_tick["x"] + x_tick["width"] / 2, y_tick["y"] + y_tick["height"] / 2)
    wait_idle(page)

    # the clicked cell's CONTEXT_LIMIT, tokens with the overhead, in the sidebar's characters
    chars = tune_axes.converter(prepare(load_conversation(LONG_SAMPLE))).chars(
        "context_limit", int(x_labels[column].replace(",", "")))
    expect(context_limit).to_have_value(str(chars))
    # the boxes naming a cell (the same as clicking it) follow the click
    x_box = page.get_by_role("combobox", name="CONTEXT_LIMIT (tokens, with the overhead)", exact=True)
    y_box = page.get_by_role("combobox", name="max_messages", exact=True)
    expect(x_box).to_have_value(x_labels[column])
    expect(y_box).to_have_value(y_labels[row])
    page.get_by_role("button", name="Apply to the sidebar").click()
    wait_idle(page)
    expect(context_limit).to_have_value(str(chars))  # Apply keeps the clicked cell
    expect(x_box).to_have_value(x_labels[column])
    expect(y_box).to_have_value(y_labels[row])
    expect(page.get_by_text("The black square marks the sidebar's settings.")).to_be_visible()
    no_exception(page)
