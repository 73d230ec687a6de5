"""The Compare page in AppTest on the default sample (the seed demo): the strategies chosen, a parameter
changed, a bad combination named, and a deep link restoring both."""

from streamlit.testing.v1 import AppTest

from compaction.generate import generate
from compaction.replay.loop import replay
from compaction.strategies import REGISTRY, build
from dashboard.ui.compare_form import DEFAULT_CHOICE

from .conftest import REPO, TIMEOUT, chart_spec, open_page

RAW_TOKENS_SENT = "450,041"  # the seed demo's 61 calls with nothing compacted


def table(at):
    return at.table[0].value


def test_the_default_choice_is_replayed_and_named_in_full(app):
    at = open_page(app, "compare")
    assert not at.exception
    rows = table(at)
    labels = [REGISTRY[name].label for name in DEFAULT_CHOICE]
    assert rows["strategy"].tolist() == labels  # short names, whole: never cut
    lines = [trace["name"] for trace in chart_spec(at)["data"]]
    assert lines == ["no compaction", *labels]
    hover = [trace.get("hovertemplate", "") for trace in chart_spec(at)["data"][1:]]
    assert all(f"<b>{REGISTRY[name].title}</b>" in text for name, text in zip(DEFAULT_CHOICE, hover, strict=True))
    assert "★" in rows["best trade-off"].tolist()
    assert set(rows["model calls"]) == {"61"}


def test_strategies_that_never_acted_are_named_under_the_chart(app):
    at = open_page(app, "compare")
    # on the seed demo's 61 calls (at most about 15,000 tokens) neither Claude Code's auto-compact threshold
    # (its microcompact is off by default) nor the API's 100,000-token trigger nor OpenHands' 240 events is
    # reached, so their lines lie under the no-compaction line
    assert "Claude Code, API clear_tool_uses and OpenHands summary sent what no compaction sends at every call: " \
           "their lines run under the no-compaction line." in [caption.value for caption in at.caption]
    at.multiselect(key="compare").set_value(["pipeline", "openhands-llm"]).run()
    assert "OpenHands summary sent what no compaction sends at every call: its line runs under the " \
           "no-compaction line." in [caption.value for caption in at.caption]
    at.multiselect(key="compare").set_value(["pipeline"]).run()
    assert not [caption for caption in at.caption if "what no compaction sends" in caption.value]


def test_choosing_strategies_replays_only_those(app):
    at = open_page(app, "compare")
    at.multiselect(key="compare").set_value(["masking", "openhands-masking"]).run()
    assert not at.exception
    assert table(at)["strategy"].tolist() == ["Masking only", "OpenHands masking"]
    assert len(chart_spec(at)["data"]) == 3


def test_a_parameter_change_is_replayed(app):
    at = open_page(app, "compare")
    at.multiselect(key="compare").set_value(["anthropic-clear-tool-uses"]).run()
    row = table(at).iloc[0]
    assert row["tokens sent"] == RAW_TOKENS_SENT  # 100,000 tokens: the seed demo never reaches it
    assert row["what it did"].startswith("nothing")
    at.number_input(key="anthropic-clear-tool-uses.trigger").set_value(1_000).run()
    assert not at.exception
    row = table(at).iloc[0]
    expected = replay(generate("seed-demo"), strategy=build("anthropic-clear-tool-uses", {"trigger": 1_000}))
    assert row["tokens sent"] == f"{expected.totals['tokens_sent']:,}" != RAW_TOKENS_SENT
    assert row["what it did"].startswith("old tool results cleared in this request at ")


def test_a_combination_the_authors_forbid_is_named_and_the_others_still_run(app):
    at = open_page(app, "compare")
    at.multiselect(key="compare").set_value(["openhands-llm", "hybrid"]).run()
    at.number_input(key="openhands-llm.keep_first").set_value(200).run()
    assert [e.value for e in at.error] == [
        "OpenHands summary is left out: openhands-llm: keep_first must be less than max_size // 2 (room is "
        "needed for the tail)"]
    assert table(at)["strategy"].tolist() == ["Hybrid (masking + late summary)"]


def test_a_deep_link_restores_the_strategies_and_their_parameters():
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT)
    at.query_params["compare"] = ["hybrid", "anthropic-clear-tool-uses"]
    at.query_params["anthropic-clear-tool-uses.trigger"] = "1000"
    at.run()
    at = open_page(at, "compare")
    assert not at.exception
    assert at.multiselect(key="compare").value == ["hybrid", "anthropic-clear-tool-uses"]
    assert at.number_input(key="anthropic-clear-tool-uses.trigger").value == 1_000
    assert at.number_input(key="anthropic-clear-tool-uses.keep").value == 3  # not in the link: its default
    assert table(at)["strategy"].tolist() == ["Hybrid (masking + late summary)", "API clear_tool_uses"]
    assert table(at).iloc[1]["tokens sent"] != RAW_TOKENS_SENT
