"""Replay, Tune, Compare and the guided tour, run by AppTest on the default sample (the seed demo)."""

from compaction.generate import generate
from compaction.replay.loop import replay
from dashboard.render.time_charts import BOUNDARY_NAME
from dashboard.render.units import compact_number

from .conftest import chart_spec, metrics, open_page


def window_key(at) -> str:
    """The model window input of the file on show (its key names the file)."""
    return next(widget.key for widget in at.number_input if str(widget.key).startswith("MODEL_WINDOW:"))


def test_replay_page_shows_the_totals(app):
    at = open_page(app, "replay")
    assert not at.exception
    shown = metrics(at)
    assert shown["Model calls"] == "61"  # one per assistant message of the seed demo
    assert [m.delta for m in at.metric if m.label == "Model calls"] == ["0 summaries"]
    totals = replay(generate("seed-demo"), keep_histories=False).totals
    assert shown["Tokens sent (compared)"] == compact_number(totals["tokens_sent_compared"])
    assert shown["No compaction (compared)"] == compact_number(totals["raw_tokens_sent"])
    assert totals["tokens_sent_compared"] < totals["raw_tokens_sent"]
    assert shown["Cost (compared)"].startswith("$") and shown["Cost (all calls)"].startswith("$")
    assert shown["What it cost (log)"] == "–"  # the demo records no usage
    names = [trace.get("name") for trace in chart_spec(at)["data"]]
    assert names[:2] == ["without compaction", "sent, with compaction"]


def test_selecting_a_call_shows_its_history(app):
    at = open_page(app, "replay")
    last = at.dataframe[0].value
    at.number_input(key="replay_call").set_value(5).run()
    assert not at.exception
    fifth = at.dataframe[0].value
    assert any("**Call 5**" in element.value for element in at.markdown)
    assert len(fifth) < len(last)  # the history before call 5 is shorter than the last one
    assert fifth["role"].iloc[-1] == "user"  # it ends with what the model answers


def test_a_small_model_window_makes_reactive_compaction_fire(app):
    at = open_page(app, "replay")
    at.number_input(key=window_key(at)).set_value(1_000).run()
    assert not at.exception
    assert int(next(m.delta for m in at.metric if m.label == "Model calls").split()[0]) > 0  # summaries
    lanes = [trace.get("name") for trace in chart_spec(at)["data"]]
    assert "reactive compaction (over the model window)" in lanes


def test_replay_marks_claude_codes_own_compactions(app):
    app.selectbox(key="sample_choice").set_value("claude_code_session.jsonl")
    app.button(key="load_sample").click().run()
    at = open_page(app, "replay")
    assert not at.exception
    assert any("the agent itself compacted" in element.value for element in at.info)
    names = [trace.get("name") or "" for trace in chart_spec(at)["data"]]
    assert names.count(BOUNDARY_NAME) == 1  # named once, in the legend


def test_tour_steps_forward_and_back(app):
    at = open_page(app, "tour")
    assert not at.exception
    first = at.header[0].value
    assert at.button(key="tour_back").disabled
    at.button(key="tour_next").click().run()
    second = at.header[0].value
    assert second != first and "Layer 3" in second
    assert not at.button(key="tour_back").disabled
    at.button(key="tour_back").click().run()
    assert at.header[0].value == first
    assert at.button(key="tour_back").disabled


def test_tour_reaches_the_recap_and_stops_there(app):
    at = open_page(app, "tour")
    seen = [at.header[0].value]
    while not at.button(key="tour_next").disabled:
        at.button(key="tour_next").click().run()
        assert not at.exception
        seen.append(at.header[0].value)
    assert len(seen) == 6 and seen[-1].startswith("Recap")
    assert not any("{" in element.value for element in at.markdown)  # every number filled in
    recap = chart_spec(at)["data"][0]
    assert recap["type"] == "bar" and abs(sum(recap["y"]) - 100) < 1e-6  # each layer's share of the saving


def test_tune_apply_control_sets_the_sidebar(app):
    at = open_page(app, "tune")
    assert not at.exception
    assert at.slider(key="CONTEXT_LIMIT").value == 50_000
    at.selectbox(key="tune_pick_x").set_value(1).run()  # CONTEXT_LIMIT 20,000
    at.selectbox(key="tune_pick_y").set_value(0).run()  # KEEP_RECENT 1
    at.button(key="tune_apply").click().run()
    assert not at.exception
    assert at.slider(key="CONTEXT_LIMIT").value == 20_000
    assert at.slider(key="KEEP_RECENT").value == 1
    current = chart_spec(at)["data"][-1]
    assert current["name"] == "current settings" and current["customdata"] == [[0, 1]]


def test_tune_measure_and_bad_values(app):
    at = open_page(app, "tune")
    at.selectbox(key="tune_measure").set_value("summaries").run()
    assert not at.exception
    assert at.subheader[0].value == "Summaries written"
    at.text_input(key="tune_values_context_limit").set_value("10000, lots").run()
    assert any("'lots' is not a whole number" in element.value for element in at.error)
    assert not at.get("plotly_chart")


def test_the_window_is_the_logs_own_and_a_typed_one_stays_with_its_file():
    from pathlib import Path

    from .conftest import SAMPLES, start_app
    from .test_conversation_page import upload

    codex = Path(__file__).resolve().parents[1] / "importers" / "cases" / "valid" / "codex_compaction.jsonl"
    at = open_page(upload(start_app(), codex.name, codex.read_bytes()), "replay")
    window = at.number_input(key=window_key(at))
    assert window.value == 272_000 and "258,400" in window.help and "changed" not in window.label
    window.set_value(150_000).run()
    assert "changed" in at.number_input(key=window_key(at)).label
    assert any("Changed from the log's 272,000" in caption.value for caption in at.caption)
    claude = SAMPLES / "claude_code_session.jsonl"
    at = open_page(upload(open_page(at, "conversation"), claude.name, claude.read_bytes()), "replay")
    assert at.number_input(key=window_key(at)).value == 200_000  # not the Codex log's 150,000
    at = open_page(upload(open_page(at, "conversation"), codex.name, codex.read_bytes()), "replay")
    assert at.number_input(key=window_key(at)).value == 150_000
