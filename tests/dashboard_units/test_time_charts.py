"""The Replay, Compare and Tune figures and their helpers, checked on engine results without a browser."""

import pytest

from compaction import Settings, prepare
from compaction.generate import generate
from compaction.importers import load_conversation
from compaction.replay.loop import replay
from compaction.strategies import REGISTRY, STRATEGIES
from compaction.sweep.sweeps import sweep
from dashboard.render import timeline
from dashboard.render.replay_chart import BLIND_LANE, CACHE_LANE, PARTING_TEXT, STOP_TEXT, replay_figure
from dashboard.render.time_charts import BOUNDARY_NAME, RECORDED_NAME, strategies_figure, sweep_heatmap
from dashboard.ui import state
from tests.app.conftest import SAMPLES

SEED_DEMO = prepare(generate("seed-demo"))


@pytest.fixture(scope="module")
def seed_replay():
    return replay(SEED_DEMO)


@pytest.fixture(scope="module")
def small_sweep():
    return sweep(SEED_DEMO, ("context_limit", (5_000, 50_000)), ("keep_recent", (1, 3, 10)))


def test_replay_figure_draws_both_sizes_per_call_and_a_lane_per_action(seed_replay):
    figure = replay_figure(seed_replay)
    raw, sent, *lanes = figure.data
    assert list(raw.y) == [call.raw_tokens for call in seed_replay.calls]
    assert list(sent.y) == [call.tokens for call in seed_replay.calls]
    assert list(sent.x) == list(range(1, 62)) and list(sent.customdata) == list(range(61))
    # the layers that acted, then the calls whose prompt a layer changed (every L2 call rewrites an old
    # result, so the cache breaks there); the demo's reads name nothing twice, so no call is blind
    assert [lane.name for lane in lanes] == [timeline.ACTION_TITLES["L1"], timeline.ACTION_TITLES["L2"], CACHE_LANE]
    assert len(lanes[2].x) == seed_replay.totals["cache_breaks"] > 0
    assert seed_replay.totals["blind_references"] == 0
    l2 = lanes[1]
    assert len(l2.x) == seed_replay.totals["acted"]["L2"]
    assert all("L2" in seed_replay.calls[call].acted for call in l2.customdata)


def test_replay_figure_has_a_lane_for_calls_that_named_what_they_no_longer_saw():
    result = replay(generate("realistic", turns=80, seed=5), Settings(keep_recent=0, max_messages=10))
    lane = next(trace for trace in replay_figure(result).data if trace.name == BLIND_LANE)
    assert list(lane.customdata) == [call.call for call in result.calls if call.blind_references]


def test_replay_figure_keeps_a_far_window_off_the_axis(seed_replay):
    figure = replay_figure(seed_replay)
    texts = [note.text for note in figure.layout.annotations]
    assert "CONTEXT_LIMIT 50,000 chars ≈ 12.5 K tokens with the overhead" in texts  # 50,000 characters / 4
    assert any("far above this chart" in text for text in texts)
    assert figure.layout.yaxis.range[1] < 200_000
    near = replay_figure(replay(SEED_DEMO, model_window_tokens=15_000))
    assert any(shape.y0 == 15_000 for shape in near.layout.shapes)


def test_replay_figure_marks_claude_code_boundaries():
    session = load_conversation(SAMPLES / "claude_code_session.jsonl", name="claude_code_session.jsonl")
    result = replay(session)
    figure = replay_figure(result)
    boundary = result.boundaries[0]
    lines = [shape for shape in figure.layout.shapes if shape.x0 == boundary["call"] + 0.5]
    assert [line.yref for line in lines] == ["y domain"]  # in the sizes' chart only, not over the lanes
    # named once in the legend, not written on the chart where labels would run into each other
    assert not [note for note in figure.layout.annotations if "compacted" in (note.text or "")]
    named = [trace for trace in figure.data if trace.name == BOUNDARY_NAME]
    assert len(named) == 1 and list(named[0].x) == [boundary["call"] + 0.5]
    assert named[0].hovertext[0] == f"the agent compacted (auto), {boundary['pre_tokens']:,} tokens before"
    legend = figure.layout.legend
    assert legend.yanchor == "top" and legend.y < 0  # under the chart, clear of the lines' labels along its top


def test_strategies_figure_has_one_line_per_strategy():
    replays = {name: replay(SEED_DEMO, strategy=name) for name in STRATEGIES}
    figure = strategies_figure(replays)
    assert [trace.name for trace in figure.data] == ["no compaction"] + [REGISTRY[n].label for n in STRATEGIES]
    for trace, (name, result) in zip(figure.data[1:], replays.items(), strict=True):
        assert list(trace.y) == [call.tokens for call in result.calls]
        assert trace.hovertemplate.startswith(f"<b>{REGISTRY[name].title}</b>")
    assert len({trace.line.color for trace in figure.data[1:]}) == len(STRATEGIES)  # a colour each
    texts = [note.text for note in figure.layout.annotations]
    assert not any(text.startswith("CONTEXT_LIMIT") for text in texts)  # the peers have their own thresholds
    with_limit = strategies_figure({"pipeline": replays["pipeline"]}, context_limit=50_000)
    assert "CONTEXT_LIMIT 50,000 chars ≈ 12.5 K tokens with the overhead" in [
        note.text for note in with_limit.layout.annotations]


def test_strategies_figure_draws_the_picked_lines_thick_and_the_others_faint():
    replays = {name: replay(SEED_DEMO, strategy=name) for name in ("pipeline", "masking", "summary_keep_last")}
    figure = strategies_figure(replays, bold=["masking"])
    lines = {trace.name: trace for trace in figure.data[1:]}
    assert lines[REGISTRY["masking"].label].line.width == 4 and lines[REGISTRY["masking"].label].opacity is None
    for name in ("pipeline", "summary_keep_last"):
        assert lines[REGISTRY[name].label].line.width < 2 and lines[REGISTRY[name].label].opacity < 1
    assert figure.layout.legend.itemclick == "toggleothers"  # a name clicked shows its line alone
    alike = strategies_figure(replays)
    assert {trace.line.width for trace in alike.data[1:]} == {2}


def test_sweep_heatmap_cells_are_clickable_and_the_current_one_marked(small_sweep):
    figure = sweep_heatmap(small_sweep, "summaries", "Summaries written", current=(1, 1))
    heatmap, cells, current = figure.data
    assert [list(row) for row in heatmap.z] == small_sweep.grid("summaries")
    assert list(heatmap.x) == ["5,000", "50,000"] and list(heatmap.y) == ["1", "3", "10"]
    assert sorted(tuple(cell) for cell in cells.customdata) == [(r, c) for r in range(3) for c in range(2)]
    assert current.name == "current settings" and [tuple(c) for c in current.customdata] == [(1, 1)]
    share = sweep_heatmap(small_sweep, "tool_output_kept", "kept")
    assert all(text.endswith("%") for row in share.data[0].text for text in row)
    assert len(share.data) == 2  # no current marker when the settings are not on the grid


def test_heatmap_colour_bars_name_their_unit_and_cell_text_reads_on_its_cell(small_sweep):
    from plotly.colors import sample_colorscale

    from dashboard.render.heat_colors import DARK_TEXT, LIGHT_TEXT, _luminance

    cost = sweep_heatmap(small_sweep, "cost_usd", "Cost")
    assert cost.data[0].colorbar.title.text == "US$" and cost.data[0].colorbar.tickformat == "$,.2f"
    assert sweep_heatmap(small_sweep, "tool_output_kept", "kept").data[0].colorbar.tickformat == ".0%"
    assert sweep_heatmap(small_sweep, "summaries", "n").data[0].colorbar.title.text == "summaries"
    heat, cells = cost.data[0], cost.data[1]
    assert cells.mode == "markers+text" and list(cells.text) == [t for row in heat.text for t in row]
    values = [v for row in small_sweep.grid("cost_usd") for v in row]
    low, high = min(values), max(values)
    for value, color in zip(values, cells.textfont.color, strict=True):
        cell = sample_colorscale("Blues_r", [(value - low) / (high - low) if high > low else 0.5])[0]
        text = 1.0 if color == LIGHT_TEXT else 0.0  # white or black
        lighter, darker = max(_luminance(cell), text), min(_luminance(cell), text)
        assert color in (DARK_TEXT, LIGHT_TEXT)
        assert (lighter + 0.05) / (darker + 0.05) >= 4.5  # WCAG AA for every cell


def test_selections_name_a_call_and_a_cell():
    assert timeline.call_from_selection({"selection": {"points": [{"x": 5, "customdata": 4}]}}) == 4
    assert timeline.call_from_selection({"selection": {"points": [{"customdata": [7]}]}}) == 7
    assert timeline.call_from_selection({"selection": {"points": []}}) is None
    assert timeline.call_from_selection(None) is None
    assert timeline.cell_from_selection({"selection": {"points": [{"customdata": [2, 3]}]}}) == (2, 3)
    assert timeline.cell_from_selection({"selection": {"points": [{"customdata": 1}]}}) is None


def test_sentences_say_how_tokens_are_counted_and_where_the_agent_would_stop(seed_replay):
    assert timeline.tokens_sentence(seed_replay).startswith("No recorded usage in this file")
    assert timeline.baseline_sentence(seed_replay) is None and timeline.cache_check_sentence(seed_replay) is None
    session = load_conversation(SAMPLES / "claude_code_long_session.jsonl", name="claude_code_long_session.jsonl")
    result = replay(session, keep_histories=False)
    assert timeline.tokens_sentence(result).startswith("Tokens calibrated on what this log recorded: estimates "
                                                       "within 0.1 % of it (median over 132 calls")
    stop = result.totals["raw_stop_call"]
    assert timeline.baseline_sentence(result).startswith(f"Without compaction the agent stops at call {stop + 1:,} of 320")
    assert "% of the " in timeline.cache_check_sentence(result)


def test_values_are_parsed_and_checked():
    assert timeline.parse_values("30000, 10_000 20000 10000", 1_000, 500_000) == (10_000, 20_000, 30_000)
    for text, problem in (("", "at least one"), ("5000, x", "'x' is not"), ("999", "outside"), ("1.5", "not")):
        with pytest.raises(ValueError, match=problem):
            timeline.parse_values(text, 1_000, 500_000)


def test_default_axes_fit_the_sliders_and_hold_the_defaults():
    for spec in state.SLIDERS:
        values = timeline.DEFAULT_AXES[spec.field]
        assert len(values) == 10 and spec.default in values
        assert all(spec.minimum <= v <= spec.maximum and (v - spec.minimum) % spec.step == 0 for v in values)


def test_replay_figure_draws_what_the_log_recorded_and_where_the_uncompacted_agent_stops():
    session = load_conversation(SAMPLES / "claude_code_long_session.jsonl", name="claude_code_long_session.jsonl")
    result = replay(session, keep_histories=False)
    figure = replay_figure(result)
    by_name = {trace.name: trace for trace in figure.data}
    recorded = by_name[RECORDED_NAME]
    assert len(recorded.x) == 320 and recorded.y[0] == session.usage[result.calls[0].index]["input_tokens"] \
        + session.usage[result.calls[0].index]["cache_creation_input_tokens"] \
        + session.usage[result.calls[0].index]["cache_read_input_tokens"]
    stop = result.totals["raw_stop_call"]
    raw = by_name["without compaction"]
    assert list(raw.x) == list(range(1, stop + 1))  # the uncompacted line ends before the window refuses it
    assert list(by_name[STOP_TEXT].x) == [stop + 1] and list(by_name[STOP_TEXT].y) == [result.model_window_tokens]


def test_strategies_figure_sets_the_truth_beside_the_what_ifs():
    session = load_conversation(SAMPLES / "claude_code_long_session.jsonl", name="claude_code_long_session.jsonl")
    replays = {name: replay(session, strategy=name, keep_histories=False) for name in ("as-recorded", "pipeline")}
    figure = strategies_figure(replays)
    by_name = {trace.name: trace for trace in figure.data}
    stop = replays["pipeline"].totals["raw_stop_call"]
    # no compaction drawn over the calls it can make, as the table counts them, then the cross where it stops
    assert list(by_name["no compaction"].x) == list(range(1, stop + 1))
    assert list(by_name[STOP_TEXT].x) == [stop + 1]
    recorded = by_name[RECORDED_NAME]  # the as-recorded strategy is the recorded line, drawn once
    assert list(recorded.y) == [call.measures.recorded["context_tokens"] for call in replays["pipeline"].calls]
    assert REGISTRY["as-recorded"].label not in by_name
    assert list(by_name[BOUNDARY_NAME].x) == [b["call"] + 0.5 for b in replays["pipeline"].boundaries]
    assert by_name[REGISTRY["pipeline"].label].y[-1] == replays["pipeline"].calls[-1].tokens


def test_the_replay_chart_says_where_the_histories_part():
    session = load_conversation(SAMPLES / "claude_code_long_session.jsonl", name="claude_code_long_session.jsonl")
    result = replay(session, keep_histories=False)
    figure = replay_figure(result)
    parting = result.parting_call
    assert parting is not None and result.calls[parting - 1].exact and not result.calls[parting].exact
    assert any(shape.x0 == parting + 0.5 and shape.line.dash == "dot" for shape in figure.layout.shapes)
    assert any(note.text == PARTING_TEXT and note.x == parting + 0.5 for note in figure.layout.annotations)
    assert not any(note.text == PARTING_TEXT for note in replay_figure(replay(SEED_DEMO)).layout.annotations)
