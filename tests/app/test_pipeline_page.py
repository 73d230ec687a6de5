"""Pipeline page: the waterfall and the fate strip follow the three main sliders in the expected direction."""

from streamlit.testing.v1 import AppTest

from .conftest import REPO, TIMEOUT, fate_counts, metrics, open_page, waterfall_steps


def test_pipeline_page_starts_on_the_default_sample(app):
    at = open_page(app, "pipeline")
    assert not at.exception
    steps = waterfall_steps(at)
    assert steps["input"] == 697_419  # the seed demo, as the tutorial prints it (697 KB)
    assert steps["L3"] < 0 and steps["L1"] < 0 and steps["L2"] < 0
    assert steps["L4"] == 0  # 10 KB after L2 is under the default CONTEXT_LIMIT
    assert metrics(at)["L4 summary"] == "not needed"
    assert any("Tool pairs intact" in element.value for element in at.success)
    assert set(fate_counts(at)) == {"kept", "persisted", "snipped", "placeholder"}


def test_lower_context_limit_makes_l4_fire(app):
    at = open_page(app, "pipeline")
    assert waterfall_steps(at)["L4"] == 0
    at.number_input(key="CONTEXT_LIMIT").set_value(5_000).run()
    assert not at.exception
    steps = waterfall_steps(at)
    assert steps["L4"] < 0
    assert steps["final"] < 5_000
    assert metrics(at)["L4 summary"] == "fired"
    assert [m.delta for m in at.metric if m.label == "L4 summary"] == ["by the offline summariser"]
    assert "summarised" in fate_counts(at)


def test_lower_keep_recent_gives_more_placeholders(app):
    at = open_page(app, "pipeline")
    at.number_input(key="KEEP_RECENT").set_value(10).run()
    many_kept = waterfall_steps(at)["L2"], fate_counts(at)["placeholder"]
    at.number_input(key="KEEP_RECENT").set_value(1).run()
    assert not at.exception
    few_kept = waterfall_steps(at)["L2"], fate_counts(at)["placeholder"]
    assert few_kept[0] < many_kept[0]  # L2 removes more
    assert few_kept[1] > many_kept[1]


def test_lower_persist_threshold_persists_more(app):
    at = open_page(app, "pipeline")
    at.number_input(key="PERSIST_THRESHOLD").set_value(700_000).run()  # above the seed demo's 638 KB output
    assert waterfall_steps(at)["L3"] == 0
    assert "persisted" not in fate_counts(at)
    at.number_input(key="PERSIST_THRESHOLD").set_value(30_000).run()
    assert not at.exception
    assert waterfall_steps(at)["L3"] < 0
    assert fate_counts(at)["persisted"] == 1


def test_unit_switch_shows_estimated_tokens(app):
    at = open_page(app, "pipeline")
    at.radio(key="UNIT").set_value("tokens").run()
    assert not at.exception
    assert waterfall_steps(at)["input"] == -(-697_419 // 4)
    assert metrics(at)["Loaded"] == "174.4 K"  # 697,419 characters / 4
    assert any(c.value.startswith("Sizes in estimated tokens, without the overhead.") for c in at.caption)


def test_reset_button_restores_the_tutorial_defaults(app):
    at = open_page(app, "pipeline")
    at.number_input(key="CONTEXT_LIMIT").set_value(5_000).run()
    at.number_input(key="KEEP_RECENT").set_value(0).run()
    at.button(key="reset_settings").click().run()
    assert at.number_input(key="CONTEXT_LIMIT").value == 50_000
    assert at.number_input(key="KEEP_RECENT").value == 3
    assert waterfall_steps(at)["L4"] == 0


def test_settings_come_from_the_link(tmp_path):
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT)
    at.query_params["CONTEXT_LIMIT"] = "5000"
    at.query_params["KEEP_RECENT"] = "1"
    at.run()
    assert at.number_input(key="CONTEXT_LIMIT").value == 5_000
    assert at.number_input(key="KEEP_RECENT").value == 1


def test_pipeline_page_runs_alone_with_default_settings():
    at = AppTest.from_file(str(REPO / "app_pages" / "pipeline.py"), default_timeout=TIMEOUT).run()
    assert not at.exception
    assert waterfall_steps(at)["input"] == 697_419
