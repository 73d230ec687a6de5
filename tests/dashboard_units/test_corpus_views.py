"""The Sessions page's table, filters and charts, on rows and sweeps written by hand."""

import math

import pytest

from dashboard.render.corpus_charts import corpus_heatmap, corpus_tradeoff, statistic_sweep
from dashboard.render.corpus_tables import (
    RowFilter,
    corpus_summary,
    formats_of,
    sessions_frame,
    suggested_agent_folders,
)

ROWS = [
    {"path": "projects/-home-a/1.jsonl", "project": "-home-a", "session": "s-one", "format": "claude-code",
     "messages": 10, "model_calls": 5, "saved_share": 0.5, "log_compactions": 2, "input_pair_problems": 0,
     "calls_with_pair_problems": 0, "first_time": "2025-03-14T09:00:00Z", "error": None},
    {"path": "exports/b/2.json", "project": "b", "session": "2", "format": "anthropic", "messages": 4,
     "model_calls": 2, "saved_share": 0.25, "log_compactions": 0, "input_pair_problems": 1,
     "calls_with_pair_problems": 3, "error": None},
    {"path": "exports/b/3.json", "project": "b", "session": "3", "format": "anthropic", "messages": 6,
     "model_calls": 3, "saved_share": 0.0, "log_compactions": 0, "input_pair_problems": 0,
     "calls_with_pair_problems": 0, "error": None},
    {"path": "exports/b/bad.json", "project": "b", "session": "bad", "format": None, "messages": None,
     "error": "exports/b/bad.json: not valid JSON"},
]


@pytest.mark.parametrize(("row_filter", "paths"), [
    (RowFilter(), ["1.jsonl", "2.json", "3.json", "bad.json"]),
    (RowFilter(text="S-ONE"), ["1.jsonl"]),  # the session id, whatever the case
    (RowFilter(text="exports/b"), ["2.json", "3.json", "bad.json"]),
    (RowFilter(formats=("Anthropic",)), ["2.json", "3.json"]),  # the formats' titles, as the page offers them
    (RowFilter(formats=("unreadable", "Claude Code")), ["1.jsonl", "bad.json"]),
    (RowFilter(errors_only=True), ["bad.json"]),
    (RowFilter(pair_problems_only=True), ["2.json"]),
    (RowFilter(compactions_only=True), ["1.jsonl"]),
    (RowFilter(text="b", pair_problems_only=True), ["2.json"]),
])
def test_filters(row_filter, paths):
    assert [row["path"].rsplit("/", 1)[1] for row in ROWS if row_filter.keeps(row)] == paths


def test_formats_offered_include_unreadable():
    assert formats_of(ROWS) == ["Anthropic", "Claude Code", "unreadable"]


def test_frame_titles_times_and_blanks():
    frame = sessions_frame(ROWS)
    assert list(frame.columns[:5]) == ["project", "session", "subagent of", "format", "error"]
    assert list(frame["format"]) == ["Claude Code", "Anthropic", "Anthropic", "unreadable"]
    assert list(frame["subagent of"]) == ["", "", "", ""]
    assert list(frame["error"]) == ["", "", "", "exports/b/bad.json: not valid JSON"]
    assert str(frame["first time"][0]) == "2025-03-14 09:00:00+00:00" and frame["first time"].isna().sum() == 3
    assert math.isnan(frame["messages"][3])


def test_summary_counts_readable_sessions_and_the_median_saving():
    assert corpus_summary(ROWS) == {"sessions": 4, "subagents": 0, "unreadable": 1, "messages": 20,
                                    "model_calls": 10, "recorded_cost_usd": None, "median_saved": 0.25}
    assert corpus_summary([])["median_saved"] is None


SWEEP = {"x": {"name": "context_limit", "values": [10_000, 50_000]}, "y": {"name": "keep_recent", "values": [1]},
         "sessions": 3,
         "measures": {"tokens_sent": {"median": [[1200.0, 30_000.0]], "p90": [[2500.0, 90_000.0]], "sessions": [[3, 3]]},
                      "tool_output_kept": {"median": [[0.5, 0.9]], "p90": [[0.75, 1.0]], "sessions": [[2, 2]]}}}


def test_heatmap_shows_median_and_p90_in_each_cell():
    figure = corpus_heatmap(SWEEP, "tokens_sent")
    heat = figure.data[0]
    assert list(heat.x) == ["10,000", "50,000"] and list(heat.y) == ["1"]
    assert list(heat.z[0]) == [1200.0, 30_000.0]
    assert list(heat.text[0]) == ["1,200<br>p90 2,500", "30.0 K<br>p90 90.0 K"]
    assert list(heat.customdata[0][1]) == ["30.0 K", "90.0 K", 3]
    assert heat.colorscale[0][1] != corpus_heatmap(SWEEP, "tool_output_kept").data[0].colorscale[0][1]
    assert corpus_heatmap(SWEEP, "tool_output_kept").data[0].text[0][0] == "50%<br>p90 75%"


def test_the_median_session_sweep_feeds_tunes_tradeoff_chart():
    median = statistic_sweep(SWEEP)
    assert median.cells == [[{"tokens_sent": 1200.0, "tool_output_kept": 0.5},
                             {"tokens_sent": 30_000.0, "tool_output_kept": 0.9}]]
    assert statistic_sweep(SWEEP, "p90").cells[0][1] == {"tokens_sent": 90_000.0, "tool_output_kept": 1.0}
    points, front = corpus_tradeoff(SWEEP, "tokens_sent", "tool_output_kept").data[:2]
    assert list(points.x) == [1200.0, 30_000.0] and list(points.y) == [0.5, 0.9]
    # cheaper but keeping less, or dearer and keeping more: neither beats the other, both on the front
    assert list(front.x) == [1200.0, 30_000.0]
    assert [list(cell) for cell in points.customdata] == [[0, 0], [0, 1]]  # (row, column): a click applies it


def test_the_agents_folders_are_suggested_when_they_exist(tmp_path):
    assert suggested_agent_folders(tmp_path) == []  # no agent's folder here
    (tmp_path / ".claude" / "projects").mkdir(parents=True)
    (tmp_path / ".codex" / "sessions").mkdir(parents=True)
    assert suggested_agent_folders(tmp_path) == [("Claude Code", tmp_path / ".claude" / "projects"),
                                                 ("Codex CLI", tmp_path / ".codex" / "sessions")]
