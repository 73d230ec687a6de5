"""Persisted-outputs page: lists what L3 wrote in this session, pages its content, checks it byte for byte."""

from pathlib import Path

from compaction.importers import load_conversation
from compaction.model.messages import content_text, tool_results

from .conftest import SAMPLES, open_page


def dump_output() -> str:
    last = load_conversation(SAMPLES / "seed_demo.json").messages[-1]
    return content_text(tool_results(last)[0]["content"])


def test_persisted_page_lists_what_l3_wrote(app, session_store):
    at = open_page(app, "persisted_outputs")
    assert not at.exception
    table = at.dataframe[0].value
    assert table["tool_use_id"].tolist() == ["tbig"]
    assert table["tool"].tolist() == ["bash"]
    assert table["bytes on disk"].tolist() == [len(dump_output().encode())]
    path = Path(table["path"][0])
    assert session_store in path.parents  # this workspace's folder under COMPACTION_STORE_ROOT
    assert path.read_text() == dump_output()
    assert any("Yes: the file's" in element.value for element in at.success)


def test_full_output_is_shown_in_pages_beside_the_preview(app):
    at = open_page(app, "persisted_outputs")
    full, preview = at.code[0].value, at.code[1].value
    output = dump_output()
    assert full == output[:20_000]
    assert preview.startswith("<persisted-output>\nFull output: ")
    assert output[:2_000] in preview
    at.number_input(key="persisted_page").set_value(2).run()
    assert at.code[0].value == output[20_000:40_000]


def test_nothing_persisted_says_why(app):
    app.number_input(key="PERSIST_THRESHOLD").set_value(700_000).run()
    at = open_page(app, "persisted_outputs")
    assert not at.exception
    assert at.info[0].value.startswith("L3 has saved nothing in your workspace yet.")
