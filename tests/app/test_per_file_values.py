"""Issue 29: what the person sets for one file belongs to that file. A model window, own prices, Compare's
choice and a strategy's parameter typed for one upload are marked as set by you, and the next upload starts
again from its own defaults (its agent's preset first); the sidebar's settings stay, marked when they
differ from the tutorial's."""

from pathlib import Path

from compaction.agents import agent_of
from compaction.importers import load_conversation
from compaction.strategies import REGISTRY
from dashboard.ui.compare_form import default_choice

from .conftest import SAMPLES, open_page, start_app
from .test_conversation_page import upload

CASES = Path(__file__).resolve().parents[1] / "importers" / "cases" / "valid"
CODEX = CASES / "codex_compaction.jsonl"
CLAUDE = SAMPLES / "claude_code_session.jsonl"


def captions(at) -> list[str]:
    return [caption.value for caption in at.caption]


def strategies(at) -> list[str]:
    return at.table[0].value["strategy"].tolist()


def test_values_set_for_one_file_are_marked_and_do_not_follow_the_next_upload():
    at = upload(start_app(), CODEX.name, CODEX.read_bytes())
    at = open_page(at, "compare")
    assert not at.exception
    codex = agent_of(load_conversation(CODEX).format).own_preset
    assert at.multiselect(key="compare").value == default_choice(load_conversation(CODEX).format)
    assert codex in at.multiselect(key="compare").value  # the log's own agent's preset, from the start

    at.number_input(key="MODEL_WINDOW").set_value(150_000).run()
    at.radio(key="PRICES").set_value("own").run()
    # a parameter with a number of its own (the window and the limit default to the log's, 0)
    param = next(p for p in REGISTRY[codex].params if isinstance(p.default, int) and p.default > 0)
    at.number_input(key=f"{codex}.{param.name}").set_value(int(param.default) // 2).run()
    at.multiselect(key="compare").set_value(["pipeline", codex, "hybrid"]).run()
    assert not at.exception
    shown = captions(at)
    assert any("Model window: set by you for this file (the log's own: 272,000)" in text for text in shown)
    assert any("Prices: set by you for this file" in text for text in shown)
    assert any(f"set by you: {param.name} {int(param.default) // 2:,}" in row for row in strategies(at))
    popovers = [p.proto.popover.label for p in at.get("popover")]
    assert f"{REGISTRY[codex].label} · changed" in popovers

    at = open_page(at, "conversation")
    at = upload(at, CLAUDE.name, CLAUDE.read_bytes())
    at = open_page(at, "compare")
    assert not at.exception
    claude_format = load_conversation(CLAUDE).format
    assert at.multiselect(key="compare").value == default_choice(claude_format)
    assert at.number_input(key="MODEL_WINDOW").value == 200_000  # Claude Sonnet's window, not the 150,000 typed
    assert at.radio(key="PRICES").value == "log"
    assert not any("set by you" in text.lower() for text in captions(at))
    assert not any("set by you" in row for row in strategies(at))
    # back on the Codex log, its preset's parameter is its default again: nothing carried over
    at = open_page(at, "conversation")
    at = upload(at, CODEX.name, CODEX.read_bytes())
    at = open_page(at, "compare")
    assert at.number_input(key=f"{codex}.{param.name}").value == param.default


def test_the_sidebar_keeps_its_settings_across_files_and_says_which_are_yours(app):
    app.number_input(key="CONTEXT_LIMIT").set_value(20_000).run()
    assert "Set by you; the tutorial's: 50,000." in " ".join(c.value for c in app.sidebar.caption)
    at = upload(app, CLAUDE.name, CLAUDE.read_bytes())
    assert at.number_input(key="CONTEXT_LIMIT").value == 20_000
    assert at.select_slider(key="CONTEXT_LIMIT_scale").value == 20_000
    at.button(key="reset_settings").click().run()
    assert at.number_input(key="CONTEXT_LIMIT").value == 50_000
    assert "Set by you" not in " ".join(c.value for c in at.sidebar.caption)


def test_the_slider_offers_round_values_and_follows_an_exact_value(app):
    slider = app.select_slider(key="CONTEXT_LIMIT_scale")
    assert slider.value == 50_000
    assert {"2,000", "8,000", "50,000", "60,000", "1,000,000", "2,500,000"} <= set(slider.options)
    app.number_input(key="CONTEXT_LIMIT").set_value(11_771).run()
    assert app.select_slider(key="CONTEXT_LIMIT_scale").value == 11_771  # a typed value is on the slider too
    app.select_slider(key="CONTEXT_LIMIT_scale").set_value(80_000).run()
    assert app.number_input(key="CONTEXT_LIMIT").value == 80_000
    assert not app.exception
