"""Demo-ready pages (issue 13), run by AppTest: a clear message for a cut-off upload, honest alarms about tool
pairs, one message numbering, results and messages told apart, the tabs reopening where the conversation came
from, no "better" on Tune, plain slider labels, a glossary on every page, the tour's ending and the report."""

import json
import re

import pytest
from streamlit.runtime.media_file_manager import MediaFileManager

from compaction.importers import load_conversation
from dashboard.render.glossary import GLOSSARY

from .conftest import SAMPLES, chart_spec, metrics, open_page

UPLOAD = "conversation_upload"
SEED = json.loads((SAMPLES / "seed_demo.json").read_text())
SEED_MESSAGES = SEED["messages"] if isinstance(SEED, dict) else SEED
# The seed demo without its last message: it ends on the `cat dump.json` call still waiting for its result.
WAITING = json.dumps(SEED_MESSAGES[:-1]).encode()
PAGES = ("conversation", "pipeline", "what_changed", "persisted_outputs", "replay", "tune", "compare", "tour")


def upload(at, name: str, data: bytes):
    at.file_uploader(key=UPLOAD).set_value((name, data, "application/json")).run()
    return at


def plain(text: str) -> str:
    """Markdown as a person reads it (escapes and bold marks removed)."""
    return re.sub(r"\\(.)", r"\1", text.replace("**", ""))


def test_a_cut_off_upload_says_so_in_whole_words(app):
    cut = (SAMPLES / "realistic_session.json").read_bytes()[:30_000]  # ends inside a string
    upload(app, "cut.json", cut)
    assert not app.exception
    [error] = app.error
    message = plain(error.value)
    assert "a string starts here and is never closed with a quote" in message
    assert "was the file cut off?" in message
    assert not message.rstrip().endswith(" at")  # json's own message stops on "starting at"
    assert not app.status  # no grey "Could not read cut.json." box above the red one


def test_a_conversation_waiting_for_a_tool_result_is_a_note_not_an_alarm(app):
    upload(app, "waiting.json", WAITING)
    assert not app.exception and not app.error
    notes = [plain(info.value) for info in app.info]
    note = next(note for note in notes if "still waiting for its result" in note)
    assert "message 121 of the loaded conversation" in note and "'tbig'" in note
    assert "The API takes a history only when every tool call has its result" in note
    assert not any("never answered" in plain(warning.value) for warning in app.warning)  # said once, by the note
    at = open_page(app, "pipeline")
    assert not at.exception
    assert not at.error  # the compaction did not break the pair: no red
    [info] = [plain(info.value) for info in at.info if "No tool pair broken by the compaction" in info.value]
    # the same call, the same number as on the Conversation page (it is message 50 of what is sent)
    assert "message 121 of the loaded conversation" in info and "message 50" not in info


def test_results_and_messages_are_told_apart(app):
    app.selectbox(key="sample_choice").set_value("realistic_session.json")
    app.button(key="load_sample").click().run()
    at = open_page(app, "pipeline")
    layer_text = next(plain(text.value) for text in at.markdown if text.value.startswith("**L2"))
    results, messages = map(int, re.search(r"Replaced (\d+) old tool results in (\d+) messages", layer_text).groups())
    strip = next(plain(caption.value) for caption in at.caption if caption.value.startswith("Messages, counted"))
    assert "a message can hold several tool results" in strip
    assert re.search(r"old tool result replaced by a placeholder \(L2\): (\d+)", strip).group(1) == str(messages)
    at = open_page(at, "what_changed")
    assert len(at.dataframe[-1].value) == results  # one row per replaced tool result
    assert results > messages  # parallel calls: several results in one message


def test_coming_back_after_an_upload_opens_the_upload_tab(app):
    assert app.session_state["conversation_tab"] == "Bundled sample"
    upload(app, "openai_chat.json", (SAMPLES / "openai_chat.json").read_bytes())
    at = open_page(app, "pipeline")
    at = open_page(at, "conversation")
    assert not at.exception
    assert at.session_state["conversation_tab"] == "Upload a file"
    shown = [plain(caption.value) for caption in at.caption if "On show now" in caption.value]
    assert shown == ["On show now: openai_chat.json (your upload). Load a sample to replace it.",
                     "On show now: openai_chat.json, uploaded earlier. Upload another file to replace it."]


def test_tune_names_what_darker_means_without_better(app):
    at = open_page(app, "tune")
    for measure, meaning in (("peak_tokens", "darker = a smaller largest context"),
                             ("tokens_sent", "darker = fewer tokens sent")):
        at.selectbox(key="tune_measure").set_value(measure).run()
        assert not at.exception
        captions = " ".join(caption.value for caption in at.caption)
        assert meaning in captions
        assert "better" not in captions.lower()


def test_sliders_say_what_they_do_in_plain_words_first(app):
    label = app.select_slider(key="CONTEXT_LIMIT_scale").label
    assert label == "Summarise when the history passes: CONTEXT_LIMIT (characters)"
    assert app.select_slider(key="KEEP_RECENT_scale").label == "Newest results kept whole: KEEP_RECENT (tool results)"
    captions = [caption.value for caption in app.sidebar.caption]
    assert "Lower: L4 summarises sooner." in captions


@pytest.mark.parametrize("name", PAGES)
def test_the_glossary_is_on_every_page(app, name):
    at = open_page(app, name)
    assert not at.exception
    text = "\n".join(element.value for element in at.sidebar.markdown)
    for word in ("context", "token", "tool call", "tool result", "placeholder", "snip", "summary", "cache",
                 "session", "your workspace"):
        assert f"**{word}**: {GLOSSARY[word]}" in text
    assert "browser" in GLOSSARY["session"] and "never means your browser" in GLOSSARY["session"]


def test_the_tour_keeps_its_glossary_open_and_ends_on_your_own_session(app):
    at = open_page(app, "tour")
    while True:
        assert [expander.proto.expanded for expander in at.expander if expander.label == "Words used here"] == [True]
        if at.button(key="tour_next").disabled:
            break
        at.button(key="tour_next").click().run()
    axis = chart_spec(at)["layout"]["yaxis"]
    assert axis.get("type", "linear") == "linear" and axis["ticksuffix"] == " %"  # each layer's share, to scale
    at.button(key="tour_try_your_own").click().run()
    assert not at.exception
    assert at.title[0].value == "Conversation"
    assert at.session_state["conversation_tab"] == "Upload a file"


@pytest.fixture
def deferred_downloads(monkeypatch):
    """The data functions of deferred download buttons, by file id. AppTest drops its media manager after
    each run, so a test records them as the real manager registers them, to call them as a click would."""
    made = {}
    register = MediaFileManager.add_deferred

    def recording(self, data_callable, mimetype, coordinates, file_name=None, **options):
        file_id = register(self, data_callable, mimetype, coordinates, file_name=file_name, **options)
        made[file_id] = (data_callable, mimetype, file_name)
        return file_id

    monkeypatch.setattr(MediaFileManager, "add_deferred", recording)
    return made


def test_the_pipeline_page_offers_the_report(app, deferred_downloads):
    at = open_page(app, "pipeline")
    at.number_input(key="CONTEXT_LIMIT").set_value(5_000).run()
    button = next(button for button in at.get("download_button") if button.proto.label == "Download report")
    make, mime, file_name = deferred_downloads[button.proto.deferred_file_id]
    assert (mime, file_name) == ("text/html", "seed_demo_report.html")
    report = make()
    assert report.startswith("<!DOCTYPE html>") and report.rstrip().endswith("</html>")
    assert "<title>Compaction report: seed_demo.json</title>" in report
    assert report.count("Plotly.newPlot(") == 2  # the waterfall and the replay
    assert "Summary of 52 messages (offline summariser, no LLM)." in report  # L4 fired at 5,000
    assert metrics(at)["L4 summary"] == "fired"


def test_the_report_escapes_the_file_name(app, deferred_downloads):
    name = '<img src="http://example.com/x.png">.json'
    upload(app, name, json.dumps(load_conversation(SAMPLES / "openai_chat.json").messages).encode())
    at = open_page(app, "pipeline")
    button = next(button for button in at.get("download_button") if button.proto.label == "Download report")
    report = deferred_downloads[button.proto.deferred_file_id][0]()
    assert "<img" not in report
    assert "&lt;img src=&quot;http://example.com/x.png&quot;&gt;.json" in report
