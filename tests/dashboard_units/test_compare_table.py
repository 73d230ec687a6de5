"""The Compare page's table: its measure columns, the best trade-offs (the Pareto front) and the
words for what a strategy did."""

from pathlib import Path

from compaction import prepare
from compaction.generate import generate
from compaction.importers import load_conversation
from compaction.replay.loop import replay
from compaction.strategies import build
from dashboard.render.compare_table import (
    BEST,
    COLUMNS,
    COST_COLUMNS,
    NO_COMPACTION,
    THE_LOG,
    MeasureColumn,
    best_trade_offs,
    compare_frame,
    what_it_did,
)

SEED_DEMO = prepare(generate("seed-demo"))
SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"


def rows(**values):
    return {name: {"tokens": tokens, "tool_output_kept": kept} for name, (tokens, kept) in values.items()}


def test_the_best_trade_offs_are_those_no_other_beats_on_both():
    table = rows(cheap=(100, 0.5), same=(100, 0.5), whole=(200, 0.9), worse=(300, 0.8), dearer=(150, 0.5),
                 no_output=(50, None))
    # worse: whole sends less and keeps more; dearer: cheap sends less, keeps as much; equal rows do not beat
    # each other; a strategy with no tool output to keep is only judged on what it sends
    columns = (MeasureColumn("tokens", "tokens sent", "", lambda r: 0, better="lower"),
               MeasureColumn("tool_output_kept", "tool output kept whole", "", lambda r: 0, better="higher"))
    assert best_trade_offs(table, columns, trade_off=("tokens", "tool_output_kept")) == {
        "cheap", "same", "whole", "no_output"}


def test_a_new_measure_column_joins_the_table_and_the_trade_off():
    # clearing every result as it arrives sends the least and keeps none whole; a window of 100 keeps all
    cheap, whole = (replay(SEED_DEMO, strategy=build(name, params)) for name, params in
                    (("anthropic-clear-tool-uses", {"trigger": 1, "keep": 0}), ("masking", {"window": 100})))
    replays = {"anthropic-clear-tool-uses": cheap, "masking": whole}
    assert cheap.totals["tool_output_kept"] == 0.0 and whole.totals["tool_output_kept"] == 1.0
    frame = compare_frame(replays)
    # no compaction fits the window: every call is compared, so "cost, {compared}" and "cost, {whole}" are one
    assert list(frame.columns) == ["best trade-off", "strategy", *dict.fromkeys(c.heading(cheap) for c in COLUMNS)]
    assert "tokens sent, all 61 calls" in frame.columns and list(frame.columns).count("cost, all 61 calls") == 1
    assert len(frame.columns) == 2 + len(COLUMNS) - 1
    assert frame["best trade-off"].tolist() == [BEST, BEST]  # cheaper against more output kept whole
    made_up = MeasureColumn("summaries_cost", "summaries cost", "made up for the test",
                            lambda r: 1 if r is whole else 2, better="lower")
    frame = compare_frame(replays, (*COLUMNS, made_up), ("cost", "summaries_cost"))
    assert frame["summaries cost"].tolist() == ["2", "1"]
    assert frame["best trade-off"].tolist() == [BEST, BEST]
    frame = compare_frame(replays, (*COLUMNS, made_up), ("summaries_cost",))
    assert frame["best trade-off"].tolist() == ["", BEST]


def test_the_tables_compare_with_no_compaction_over_the_same_calls_and_show_the_logs_cost():
    session = load_conversation(SAMPLES / "claude_code_long_session.jsonl")
    replays = {name: replay(session, strategy=name, keep_histories=False) for name in ("as-recorded", "pipeline")}
    pipeline = replays["pipeline"].totals
    compared = pipeline["compared_calls"]
    frame = compare_frame(replays, COST_COLUMNS, references=True).set_index("strategy")
    span = f"calls 1–{compared:,}"
    assert compared == pipeline["raw_stop_call"] < 320
    assert frame.loc[NO_COMPACTION, f"tokens sent, {span}"] == f"{pipeline['raw_tokens_sent']:,}"
    assert frame.loc[NO_COMPACTION, "cost, all 320 calls"] == f"n/a past call {compared}"
    assert frame.loc["Tutorial pipeline", f"tokens sent, {span}"] == f"{pipeline['tokens_sent_compared']:,}"
    saved = 1 - pipeline["tokens_sent_compared"] / pipeline["raw_tokens_sent"]
    assert frame.loc["Tutorial pipeline", f"saved vs no compaction, {span}"] == f"{100 * saved:.0f} %"
    assert frame.loc[THE_LOG, "cost, all 320 calls"] == f"${pipeline['recorded_cost_usd']:,.2f}"
    assert list(frame.index[:2]) == [THE_LOG, NO_COMPACTION]  # the truth first, then the what-ifs


def test_what_it_did_names_each_action_and_how_often():
    forgetting = replay(SEED_DEMO, strategy=build("openhands-amortized", {"max_size": 20}))
    counted = forgetting.totals["acted"]["forget"]
    assert counted > 1
    assert what_it_did(forgetting) == f"middle of the history forgotten at {counted:,} calls"
    idle = replay(SEED_DEMO, strategy=build("anthropic-compact"))
    assert what_it_did(idle) == "nothing: the session stayed under its thresholds"
