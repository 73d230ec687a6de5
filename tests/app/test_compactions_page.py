"""The Compactions page, run by AppTest on the long Claude Code sample: one card per compaction its log
records, with the figures of compaction.compactions' cards (the same ones `compaction compactions` prints)."""

from compaction import load_conversation, prepare
from compaction.compactions import compaction_cards

from .conftest import SAMPLES, open_page

LONG = "claude_code_long_session.jsonl"


def _load(app, name: str):
    app.selectbox(key="sample_choice").set_value(name)
    app.button(key="load_sample").click().run()
    return open_page(app, "compactions")


def test_one_card_per_compaction_with_the_logs_figures(app):
    at = _load(app, LONG)
    assert not at.exception
    conversation = load_conversation(SAMPLES / LONG)
    cards = compaction_cards(prepare(conversation), conversation.format)
    assert [h.value for h in at.main.subheader] == ["Compaction 1, before call 133", "Compaction 2, before call 261"]
    assert [card.call for card in cards] == [133, 261]
    facts = [dict(zip(t.value["what"], t.value["value"], strict=True)) for t in at.table if "what" in t.value.columns
             and "Tokens before (the log's count)" in set(t.value["what"])]
    assert [f["Tokens before (the log's count)"] for f in facts] == ["167,285", "167,058"]  # the log's preTokens
    assert [f["Tokens after (the first call after, as recorded)"] for f in facts] == ["17,899", "17,900"]
    assert all(f["Why"].startswith("auto ") for f in facts)
    names = [list(t.value["name"]) for t in at.table if "name" in t.value.columns]
    assert names == [[item.name for item in card.reread] for card in cards]
    assert "src/tidyfeed/models.py" in names[0]
    summaries = [t.value for t in at.text]
    assert summaries == [card.carried_on.summary for card in cards]  # whole, as the agent wrote it


def test_a_log_without_compactions_says_so(app):
    at = open_page(app, "compactions")  # the default sample: the tutorial's demo
    assert not at.exception
    assert any("records no compaction of its own" in element.value for element in at.info)
