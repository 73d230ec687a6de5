"""The Compare page in AppTest on the default sample (the seed demo): the strategies chosen, a parameter
changed, a bad combination named, and a deep link restoring both."""

from streamlit.testing.v1 import AppTest

from compaction.generate import generate
from compaction.importers import load_conversation
from compaction.model.settings import Settings
from compaction.replay.loop import replay
from compaction.strategies import REGISTRY, build
from dashboard.render.compare_table import NO_COMPACTION, THE_LOG
from dashboard.render.time_charts import BOUNDARY_NAME, RECORDED_NAME
from dashboard.ui.compare_form import default_choice
from dashboard.ui.loading import DEFAULT_SAMPLE, load_sample

from .conftest import REPO, TIMEOUT, chart_spec, open_page

# the strategies Compare starts from on the default sample (a generic format: no agent's preset)
DEFAULT_CHOICE = default_choice(load_sample(DEFAULT_SAMPLE).conversation.format)

RAW_TOKENS_SENT = "450,041"  # the seed demo's 61 calls with nothing compacted


TOKENS = "tokens sent, all 61 calls"  # no compaction fits the window all along: every call is compared


def table(at):
    """The strategies' rows of the tokens-and-cost table (no compaction, the reference, comes first)."""
    rows = at.table[0].value
    assert rows["strategy"].iloc[0] == NO_COMPACTION
    return rows.iloc[1:].reset_index(drop=True)


def what_it_did(at, label: str) -> str:
    listed = next(m.value for m in at.markdown if m.value.startswith("**What each did**"))
    return next(line.split(": ", 1)[1] for line in listed.splitlines() if line.startswith(f"- {label}: "))


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
    # on the seed demo's 61 calls (at most about 15,000 tokens) the API's 100,000-token trigger is not
    # reached, so its line lies under the no-compaction line (with the log's own, which never compacted)
    assert "As recorded and API clear_tool_uses sent what no compaction sends at every call: their lines run "\
           "under the no-compaction line." in [caption.value for caption in at.caption]
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
    assert row[TOKENS] == RAW_TOKENS_SENT  # 100,000 tokens: the seed demo never reaches it
    assert what_it_did(at, "API clear_tool_uses").startswith("nothing")
    at.number_input(key="anthropic-clear-tool-uses.trigger").set_value(1_000).run()
    assert not at.exception
    row = table(at).iloc[0]
    expected = replay(generate("seed-demo"), strategy=build("anthropic-clear-tool-uses", {"trigger": 1_000}))
    assert row[TOKENS] == f"{expected.totals['tokens_sent']:,}" != RAW_TOKENS_SENT
    assert what_it_did(at, "API clear_tool_uses").startswith("old tool results cleared in this request at ")


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
    assert table(at)["strategy"].tolist() == ["Hybrid (masking + late summary)",
                                            "API clear_tool_uses (set by you: trigger 1,000)"]
    assert table(at).iloc[1][TOKENS] != RAW_TOKENS_SENT


def test_compare_follows_the_sidebar_and_sets_the_truth_beside_the_what_ifs(app):
    app.selectbox(key="sample_choice").set_value("claude_code_long_session.jsonl")
    app.button(key="load_sample").click().run()
    at = open_page(app, "compare")
    assert not at.exception
    rows = at.table[0].value.set_index("strategy")
    assert list(rows.index[:3]) == [THE_LOG, NO_COMPACTION, "As recorded"]
    assert rows.loc[NO_COMPACTION, "cost, all 320 calls"] == "n/a past call 155"
    names = [trace.get("name") for trace in chart_spec(at)["data"]]
    assert RECORDED_NAME in names and BOUNDARY_NAME in names
    before = rows.loc["Tutorial pipeline", "summaries"]
    at.sidebar.number_input(key="CONTEXT_LIMIT").set_value(20_000).run()  # the pipeline row follows the sidebar
    # the row says its setting is yours
    after = at.table[0].value.set_index("strategy").loc["Tutorial pipeline (set by you: CONTEXT_LIMIT 20,000)",
                                                         "summaries"]
    expected = replay(load_conversation(REPO / "sample_data" / "claude_code_long_session.jsonl"),
                      Settings(context_limit=20_000), keep_histories=False).totals["summaries"]
    assert after == f"{expected:,}" != before
