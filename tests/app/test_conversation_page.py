"""Conversation page: a sample at start, sample picker, generator, uploads of every format, bad uploads."""

import json
import re

import pytest

from compaction.importers import load_conversation
from compaction.storage.outputs import OutputStore

from .conftest import SAMPLES, metrics, open_page

UPLOAD = "conversation_upload"


def upload(at, name: str, data: bytes):
    mime = "application/json" if name.endswith(".json") else "application/x-ndjson"
    at.file_uploader(key=UPLOAD).set_value((name, data, mime)).run()
    return at


def loaded_header(at) -> str:
    """The "Loaded: ..." header as a person reads it (markdown escapes removed)."""
    value = next(header.value for header in at.header if header.value.startswith("Loaded:"))
    return re.sub(r"\\(.)", r"\1", value)


def test_app_starts_on_the_tutorial_demo(app):
    assert not app.exception
    assert loaded_header(app) == "Loaded: seed_demo.json"
    shown = metrics(app)
    assert shown["Messages"] == "123"
    assert shown["Tool calls"] == "61"
    assert shown["Format"] == "Anthropic"
    [bars] = [spec["data"][0] for spec in (json.loads(chart.proto.spec) for chart in app.get("plotly_chart"))
              if spec["layout"]["xaxis"]["title"]["text"] == "calls"]  # the chart of tool calls by tool
    tools = dict(zip(bars["y"], bars["x"], strict=True))
    assert tools == {"read_file": 60, "bash": 1}


def test_message_table_lists_every_message_and_shows_a_full_message(app):
    table = app.dataframe[0].value
    assert len(table) == 123
    assert list(table.columns) == ["index", "role", "blocks", "tool", "size", "first line"]
    app.number_input(key="message_index").set_value(122).run()
    shown = app.code[0].value
    assert shown.startswith("[tool result for bash  id tbig]")
    assert any("Page (of" in field.label for field in app.number_input)  # 638 KB is shown in pages


@pytest.mark.parametrize(("name", "format_shown"), [
    ("anthropic_request.json", "Anthropic"),
    ("claude_code_session.jsonl", "Claude Code"),
    ("openai_chat.json", "OpenAI chat"),
    ("realistic_session.json", "Anthropic"),
])
def test_uploading_each_format_loads_it(app, name, format_shown):
    expected = load_conversation(SAMPLES / name)
    upload(app, name, (SAMPLES / name).read_bytes())
    assert not app.exception
    assert not app.error
    assert loaded_header(app) == f"Loaded: {name}"
    assert metrics(app)["Format"] == format_shown
    assert metrics(app)["Messages"] == f"{len(expected.messages):,}"
    assert len(app.dataframe[0].value) == len(expected.messages)
    if expected.warnings:
        assert app.warning and "The importer noted" in app.warning[0].value
    if expected.metadata.get("compact_boundaries"):
        assert any("Claude Code already compacted this session" in note.value for note in app.info)


def test_uploading_a_transcript_jsonl_loads_it(app, tmp_path):
    messages = load_conversation(SAMPLES / "seed_demo.json").messages[:9]
    path = OutputStore(tmp_path).save_transcript(messages)
    upload(app, "transcript.jsonl", path.read_bytes())
    assert not app.exception and not app.error
    assert metrics(app)["Messages"] == "9"


def test_upload_is_analysed_on_the_other_pages(app):
    upload(app, "openai_chat.json", (SAMPLES / "openai_chat.json").read_bytes())
    at = open_page(app, "pipeline")
    assert not at.exception
    assert "openai_chat.json" in at.caption[0].value


@pytest.mark.parametrize(("data", "problem"), [
    (b'{"messages": [{"role": "user", "content": "hi"}, {"role": "robot", "content": "x"}]}', "role"),
    (b'{"messages": [', "malformed.json"),
    (b"\xff\xfe not utf-8", "malformed.json"),
])
def test_malformed_upload_shows_the_problem_and_keeps_the_previous_conversation(app, data, problem):
    upload(app, "malformed.json", data)
    assert not app.exception
    assert len(app.error) == 1
    message = app.error[0].value
    assert "malformed.json could not be read" in message and "previous conversation stays loaded" in message
    assert problem in message.split("\n\n", 1)[1]
    assert loaded_header(app) == "Loaded: seed_demo.json"
    assert metrics(app)["Messages"] == "123"
    at = open_page(app, "pipeline")
    assert metrics(at)["Loaded"] == "697.4 K"


def test_sample_picker_loads_the_chosen_sample(app):
    app.selectbox(key="sample_choice").set_value("realistic_session.json").run()
    app.button(key="load_sample").click().run()
    assert not app.exception
    assert loaded_header(app) == "Loaded: realistic_session.json"
    assert metrics(app)["Messages"] == "1,001"


def test_generator_makes_a_conversation_with_the_knobs(app):
    app.slider(key="generate_turns").set_value(40).run()
    app.number_input(key="generate_seed").set_value(5).run()
    app.button(key="generate").click().run()
    assert not app.exception and not app.error
    assert metrics(app)["Format"] == "generated"
    assert metrics(app)["Messages"] == "81"  # every turn is a call and its results, plus the request
    assert loaded_header(app).startswith("Loaded: realistic (")
