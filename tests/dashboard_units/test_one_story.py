"""The words and small calculations behind one honest story (no Streamlit): like-for-like comparisons, how a
replay was priced and what the session cost, the fidelity table, the one pass over a self-compacted log, Tune's
token axes and why a stretch of its grid is flat, and the tour's recap."""

import dataclasses
from pathlib import Path

import pytest

from compaction import Settings, load_conversation, prepare, run_pipeline
from compaction.generate import generate
from compaction.measures.cost import Prices
from compaction.replay.loop import replay
from compaction.strategies import compaction_point
from compaction.sweep.sweeps import sweep
from dashboard.render import (
    charts,
    comparison,
    layer_amounts,
    log_view,
    narrative,
    price_words,
    tables,
    tune_axes,
)
from dashboard.render.fidelity_table import fidelity_frame, fidelity_of, fidelity_sentence
from dashboard.render.tour import TOUR_SETTINGS, saving_figure, tour_numbers
from dashboard.render.tune_notes import flat_from, irrelevance_notes, layers_below
from dashboard.render.units import SHORT, compact_number, convert

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
SEED_DEMO = prepare(generate("seed-demo"))


@pytest.fixture(scope="module")
def long_log():
    return prepare(load_conversation(SAMPLES / "claude_code_long_session.jsonl"))


@pytest.fixture(scope="module")
def long_replay(long_log):
    return replay(long_log, keep_histories=False)


def test_the_headline_names_where_the_agent_stops_and_the_calls_compared(long_replay):
    stop = long_replay.raw_stop_call
    assert comparison.range_label(long_replay) == f"calls 1–{stop:,}"
    assert comparison.stop_headline(long_replay).startswith(f"Without compaction the agent stops at call {stop + 1} "
                                                            "of 320")
    assert f"compared over calls 1–{stop}" in comparison.stop_headline(long_replay)
    assert comparison.past_stop(long_replay) == f"n/a past call {stop}"
    seed = replay(SEED_DEMO, keep_histories=False)
    assert comparison.range_label(seed) == "all 61 calls" and comparison.past_stop(seed) is None
    totals = long_replay.totals
    assert comparison.cost_difference_sentence(long_replay).startswith(
        f"Over calls 1–{stop} compaction costs ${totals['cost_usd_compared']:,.2f} against ${totals['raw_cost_usd']:,.2f}")


def test_the_demo_links_its_saving_to_its_cost_in_one_sentence():
    seed = replay(SEED_DEMO, keep_histories=False)
    sentence = comparison.saving_and_cost_sentence(0.985, seed)
    totals = seed.totals
    assert totals["cost_usd_compared"] > totals["raw_cost_usd"]  # the demo: compaction breaks the cache, costs more
    assert sentence.startswith("One pass over the loaded conversation saves 98.5% of its characters; over the whole "
                               "session the same settings send")
    assert f"but cost more, ${totals['cost_usd_compared']:,.2f} against ${totals['raw_cost_usd']:,.2f}" in sentence
    assert f"because {totals['cache_breaks']} of 61 calls rewrote an earlier part of the history" in sentence
    assert sentence.count(". ") == 0  # one sentence


def test_prices_as_the_log_says_or_yours_and_a_conversation_without_a_model(long_replay):
    assert price_words.priced_sentence(long_replay) == ("Priced as the log says: each call at its response's model, "
                                                        "claude-sonnet-4-5 (320 calls); 5-minute cache writes, as "
                                                        "the log's.")
    assert price_words.session_cost_text(long_replay) == f"${long_replay.totals['recorded_cost_usd']:,.2f}"
    seed = replay(SEED_DEMO, keep_histories=False)
    assert price_words.priced_sentence(seed).startswith("Priced at today's defaults, as the conversation names no "
                                                        "model: $3.00 input and $15.00 output")
    assert price_words.session_cost_text(seed) == "–"
    assert price_words.session_cost_sentence(seed).startswith("What this session cost is unknown")
    mine = replay(SEED_DEMO, keep_histories=False, prices=Prices(input=5, output=25))
    assert price_words.priced_sentence(mine).startswith("Priced at your prices: $5.00 input and $25.00 output")


def test_the_fidelity_table_sets_the_logs_compactions_beside_the_strategys(long_log):
    preset = replay(long_log, strategy="claude-code", keep_histories=False)
    found = fidelity_of(preset)
    frame = fidelity_frame(found)
    assert frame["the log compacted before call"].tolist() == ["133", "261"]
    assert frame["tokens before (the log)"].tolist() == ["167,285", "167,058"]
    assert frame["calls apart"].tolist() == ["the same call", "the same call"]
    # every compaction, not only the first: what the first call after each carried, recorded and estimated
    assert frame["log's compaction"].tolist() == ["1 (automatic)", "2 (automatic)"]
    assert frame["first call after (the log)"].tolist() == [f"{p.log_after_tokens:,}" for p in found.pairs]
    assert all(p.log_after_tokens and p.strategy_after_tokens for p in found.pairs)
    assert frame["first call after (the strategy)"].tolist() == [
        f"{p.strategy_after_tokens:,} ({p.strategy_after_tokens / p.log_after_tokens - 1:+.0%})" for p in found.pairs]
    assert "132 calls sent exactly what the agent sent" in fidelity_sentence(found, preset)
    # exact calls after the parting (a call without usage between them) are not counted before it
    later = dataclasses.replace(found, exact_calls=178)
    assert "132 calls sent exactly what the agent sent, so their tokens are the recorded ones (until call 133" \
        in fidelity_sentence(later, preset)
    assert fidelity_of(replay(SEED_DEMO, keep_histories=False)) is None  # no compaction of its own


def test_the_one_pass_leaves_the_agents_summaries_out_or_starts_after_its_last(long_log):
    summaries = sorted(long_log.recorded.agent_summaries)
    whole = log_view.log_view(long_log, log_view.WITHOUT_SUMMARIES)
    assert whole.left_out == tuple(summaries) and not set(summaries) & set(whole.history.origins)
    assert len(whole.history) == len(long_log.messages) - len(summaries)
    after = log_view.log_view(long_log, log_view.AFTER_LAST)
    # the agent's last summary is the first message sent: "Sent" and L4's check count it
    assert after.history.origins[0] == summaries[-1] and after.ahead_chars == long_log.sizes[summaries[-1]]
    assert after.left_out == () and after.history.messages[0] is long_log.messages[summaries[-1]]
    assert after.history.sizes == long_log.sizes[summaries[-1]:]
    assert "messages 522 to the end" in log_view.view_sentence(after, "chars")
    run = run_pipeline(after.history, Settings(context_limit=5_000, max_messages=8))
    assert run.summary.triggered and summaries[-1] not in run.summary.summarized_indices  # never summarised again
    assert not any(summaries[-1] in s.indices for s in run.snipped)  # nor snipped
    # the lab's summary, then the agent's as it was: what is sent holds both, and "Sent" measures it
    assert run.final.messages[1] is long_log.messages[summaries[-1]]
    assert run.final.history.sizes[1] == long_log.sizes[summaries[-1]]
    assert run.final.size == run.final.history.size > long_log.sizes[summaries[-1]]
    plain = log_view.log_view(SEED_DEMO, log_view.WITHOUT_SUMMARIES)
    assert plain.view is None and plain.history is SEED_DEMO and log_view.view_sentence(plain, "chars") is None


def test_token_axes_span_the_agents_regime_and_include_its_own_compaction_point(long_log):
    values = tune_axes.regime_context_limits(long_log, 200_000)
    point = compaction_point(long_log)
    assert point == 167_285 and min(values) < 50_000 and max(values) == 200_000 and 167_000 in values
    assert tune_axes.regime_max_messages(643) == (50, 100, 200, 500, 1_000)
    convert = tune_axes.converter(long_log)
    chars = convert.chars("context_limit", 167_000)
    assert chars % 100 == 0 and abs(convert.tokens("context_limit", chars) - 167_000) < 50  # nearest 100 characters
    assert convert.tokens("persist_threshold", convert.chars("persist_threshold", 10_000)) == pytest.approx(10_000, abs=30)
    assert tune_axes.unit_words("context_limit", "tokens") == "tokens, with the overhead"
    assert tune_axes.unit_words("keep_recent", "tokens") == ""


def test_a_flat_stretch_of_the_grid_names_the_layer_that_keeps_the_history_below_it():
    assert flat_from([{"a": 1}, {"a": 2}, {"a": 2}, {"a": 2}]) == 1
    assert flat_from([{"a": 1}, {"a": 2}]) is None
    result = sweep(SEED_DEMO, ("context_limit", [5_000, 20_000, 50_000, 100_000]), ("max_messages", [50, 200]))
    notes = irrelevance_notes(result, SEED_DEMO, lambda field, value: f"{value:,}", str.upper, in_tokens=False)
    assert notes[0].startswith("CONTEXT_LIMIT makes no difference from 20,000 up at MAX_MESSAGES 50: L1 (max_messages "
                               "50) and L2 (KEEP_RECENT 3) already keep the history under")
    assert notes[0].endswith("characters, so L4 never fires there.")
    assert layers_below(SEED_DEMO, Settings(max_messages=200, keep_recent=200)) == []  # the agent's own regime


def test_the_tours_recap_is_as_tall_as_the_text_says_and_names_who_wrote_the_summary():
    run = run_pipeline(SEED_DEMO, TOUR_SETTINGS)
    bars = saving_figure(run).data[0]
    assert saving_figure(run).layout.yaxis.type in (None, "linear")
    shares = dict(zip(bars.x, bars.y, strict=True))
    assert shares["Layer 3: outputs to disk"] > 50 > shares["Layer 4: summary"]  # L3 saved the most, L4 the least
    assert sum(shares.values()) == pytest.approx(100)
    assert tour_numbers(run)["summary_author"].startswith("the offline summariser, a small program that needs no AI")


def test_as_recorded_is_the_logs_cost_and_its_compaction_calls_beside_it(long_log):
    recorded = replay(long_log, strategy="as-recorded", keep_histories=False)
    totals = recorded.totals
    calls = len(long_log.recorded.boundaries)
    assert totals["summaries"] == calls == 2
    sentence = price_words.cost_parts_sentence("As recorded", recorded)
    assert sentence == (f"As recorded costs ${totals['cost_usd']:,.2f}: ${totals['recorded_cost_usd']:,.2f} for the "
                        f"{totals['recorded_calls']:,} calls its log records and "
                        f"${totals['compaction_calls_cost_usd']:,.2f} for its 2 compaction calls (the summaries: "
                        f"{totals['compaction_calls_input_tokens']:,} tokens read, "
                        f"{totals['compaction_calls_output_tokens']:,} written), which no log records as a call.")
    assert price_words.cost_parts_sentence("Seed", replay(SEED_DEMO, keep_histories=False)) is None


@pytest.mark.parametrize("unit", ["chars", "tokens"])
def test_each_layer_removes_one_amount_on_every_page(long_log, unit):
    """L1 removed 633.7 K on the waterfall and 633.0 K on What changed: the messages' own sizes there, the
    history's change (the marker, the separators) here. Now every page shows the history's change."""
    result = run_pipeline(log_view.log_view(long_log, log_view.WITHOUT_SUMMARIES).history, Settings())
    assert result.snipped and result.placeholders
    waterfall = charts.waterfall_figure(result, unit).data[0]
    steps = dict(zip([stage.layer for stage in result.stages[1:]], [-y for y in waterfall.y[1:-1]], strict=True))
    assert steps == {layer: layer_amounts.removed(result, layer, unit) for layer in ("L3", "L1", "L2", "L4")}
    l1 = tables.snipped_frame(result, unit)["removed"].tolist()
    assert l1 == [steps["L1"]]
    assert f"<b>−{compact_number(steps['L1'])}</b>" in waterfall.x[2]  # the L1 bar's label
    gross = convert(result.snipped[0].size, unit, long_log.token_model)
    assert gross != steps["L1"]  # the old figure: it did not count the marker sent in their place
    assert f"({compact_number(steps['L2'])} {SHORT[unit]} removed)" in narrative.layer_captions(result, unit)["L2"]
