"""What the pages say of a log that gives only its run's totals: the recorded cost is those totals, every
per-call figure is estimated, the run's model prices the calls; the Compare table's log row has the
whole run's figures only; the Sessions table says where each recorded cost comes from."""

from pathlib import Path

from compaction.importers import load_conversation
from compaction.replay.loop import replay
from dashboard.render import price_words, timeline
from dashboard.render.compare_table import COST_COLUMNS, THE_LOG, compare_frame
from dashboard.render.corpus_tables import FROM_TOTALS, recorded_from, sessions_frame
from dashboard.render.html_report import measures_section

CASES = Path(__file__).resolve().parents[1] / "importers" / "cases" / "valid"


def test_a_stream_runs_cost_is_said_to_come_from_its_totals():
    result = replay(load_conversation(CASES / "gemini_stream_stats.jsonl"), keep_histories=False)
    sentence = price_words.session_cost_sentence(result)
    assert sentence.startswith("What this session cost: $0.06, its tokens in result.stats, each model's at its price "
                               "(gemini-2.5-flash-lite, gemini-2.5-pro): 46,870 input tokens (28,160 of them read "
                               "from the cache) and 3,173 output.")
    assert "every per-call figure here (tokens, cache reads, cost) is estimated" in sentence
    assert "the run's totals" in price_words.session_cost_help(result)
    assert price_words.priced_sentence(result) == ("Priced at the run's model, gemini-2.5-pro: the log names it for "
                                                   "the whole run, not for each call.")
    assert "Where that cost comes from" in measures_section(result.totals)
    # the estimate of what the calls sent, beside the run's own input
    assert timeline.tokens_sentence(result).startswith("No call of this file records its own usage, only the run's "
                                                       "totals: 46,870 input tokens over the whole run, where the "
                                                       "estimate of its calls without compaction comes to 408.")


def test_a_trajectorys_own_cost_and_calls_are_said():
    result = replay(load_conversation(CASES / "swe_agent_model_stats.traj"), keep_histories=False)
    assert price_words.session_cost_sentence(result).startswith(
        "What this session cost: $0.09, the log's own cost (info.model_stats): 27,481 input tokens and 731 output, "
        "over 4 calls.")


def test_a_log_with_each_calls_usage_names_its_own_total_beside():
    result = replay(load_conversation(CASES / "openhands_output_metrics.jsonl"), keep_histories=False)
    sentence = price_words.session_cost_sentence(result)
    assert "each response's recorded usage" in sentence
    assert "The log's own figure for the run is $0.03 (metrics.accumulated_cost)." in sentence
    assert "estimated" not in price_words.session_cost_help(result)


def test_the_compare_tables_log_row_has_the_whole_runs_figures_only():
    session = load_conversation(CASES / "swe_agent_model_stats.traj")
    replays = {name: replay(session, strategy=name, keep_histories=False) for name in ("as-recorded", "pipeline")}
    row = compare_frame(replays, COST_COLUMNS, references=True).set_index("strategy").loc[THE_LOG]
    assert row["model calls"] == "4"
    assert row["cost, all 4 calls"] == "$0.09"
    assert replays["pipeline"].totals["compared_calls"] == 4  # compared over the whole run: its figures there too
    assert row["tokens sent, all 4 calls"] == "27,481"


def test_the_sessions_table_says_where_a_recorded_cost_comes_from():
    rows = [{"path": "a.jsonl", "recorded_cost_usd": 0.05, "recorded_from_totals": True},
            {"path": "b.jsonl", "recorded_cost_usd": 0.02, "recorded_from_totals": False},
            {"path": "c.json", "recorded_cost_usd": None, "recorded_from_totals": False}]
    assert [recorded_from(row) for row in rows] == [FROM_TOTALS, "each call's usage", ""]
    assert sessions_frame(rows)["recorded from"].tolist() == [FROM_TOTALS, "each call's usage", ""]
