"""The guided tour on the loaded session (AppTest): the demo stays the tour's first choice; on the long Claude
Code sample the same tour runs with the session's own numbers and its agent's own compactions."""

from compaction import load_conversation, prepare
from compaction.compactions import compaction_cards

from .conftest import SAMPLES, chart_spec, open_page

LONG = "claude_code_long_session.jsonl"


def test_the_demo_is_the_tours_first_choice(app):
    at = open_page(app, "tour")
    assert not at.exception
    assert at.radio(key="tour_which").value == "The tutorial's example"
    assert at.header[0].value == "The problem: the context fills up"


def test_the_tour_runs_on_the_loaded_session_with_its_own_compactions(app):
    app.selectbox(key="sample_choice").set_value(LONG)
    app.button(key="load_sample").click().run()
    at = open_page(app, "tour")
    at.button(key="tour_next").click().run()  # a step into the demo: choosing the session starts again
    at.radio(key="tour_which").set_value("Your loaded session").run()
    assert not at.exception
    assert at.header[0].value == "Your session: the context fills up"
    assert any("**643 messages**" in element.value and LONG in element.value for element in at.markdown)
    seen, texts = [], []
    while True:
        seen.append(at.header[0].value)
        texts += [element.value for element in at.markdown]
        if seen[-1].startswith("What your agent did"):
            bars = chart_spec(at)["data"]
            cards = compaction_cards(prepare(load_conversation(SAMPLES / LONG)), "claude-code")
            assert bars[0]["y"] == [card.tokens_before for card in cards] == [167_285, 167_058]
            assert bars[1]["y"] == [card.tokens_after for card in cards]
        if at.button(key="tour_next").disabled:
            break
        at.button(key="tour_next").click().run()
        assert not at.exception
    assert len(seen) == 5 and seen[-1] == "Recap: your session"
    assert not any("{" in text for text in texts)  # every number filled in
    assert any("compacted its own conversation 2 times" in text for text in texts)
    assert any("the fullest carried 162,602 tokens" in text for text in texts)  # the log's largest call
