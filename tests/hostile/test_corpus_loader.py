"""Every bad input through the loader in-process (a path, and bytes as the app's uploader passes them),
then through the pipeline: a ConversationError naming the problem, or a conversation the pipeline
handles with every persisted file inside the store and identical to the output it replaced."""

import json

import pytest

from compaction import OutputStore, run_pipeline
from compaction.errors import ConversationError
from compaction.importers import load_conversation
from compaction.model.messages import content_text, tool_results
from compaction.model.validity import check_pairs

from .big_corpus import BIG_CASES
from .corpus import EXPECTED, settings_for

NAMES = sorted(EXPECTED) + sorted(BIG_CASES)


def _check(load, expectation, tmp_path, name):
    if expectation["outcome"] == "error":
        with pytest.raises(ConversationError) as raised:
            load()
        message = str(raised.value)
        assert name in message
        for word in expectation["words"]:
            assert word in message
        return
    conversation = load()
    if "messages" in expectation:
        assert len(conversation.messages) == expectation["messages"]
    warnings = " | ".join(map(str, conversation.warnings))
    for word in expectation.get("warnings", []):
        assert word in warnings
    # every string is text: the API request, a table, the page and an export all encode it as UTF-8
    json.dumps([conversation.messages, conversation.system, conversation.tools], ensure_ascii=False).encode()
    store = OutputStore(tmp_path / "store")
    result = run_pipeline(conversation, settings_for(expectation), store)
    input_problems = len(check_pairs(conversation.messages))
    for stage in result.stages:
        assert len(check_pairs(stage.messages)) <= input_problems, stage.layer
    if "persisted" in expectation or expectation.get("args"):
        assert len(result.persisted) == expectation.get("persisted", len(result.persisted)) > 0
    for event in result.persisted:
        assert store.root in event.path.resolve().parents
    for stored in store.list_outputs():
        assert stored.path.resolve().parent == store.results_dir
        outputs = [content_text(block.get("content", "")) for message in conversation.messages
                   for block in tool_results(message) if block["tool_use_id"] == stored.tool_use_id]
        assert any(store.matches(stored, output) for output in outputs), stored.tool_use_id
    assert all(store.root in p.resolve().parents for p in store.root.rglob("*"))


@pytest.mark.parametrize("name", NAMES)
def test_loader_from_a_path(name, corpus_file, tmp_path):
    path, expectation = corpus_file(name)
    _check(lambda: load_conversation(path), expectation, tmp_path, name)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_loader_from_upload_bytes(name, corpus_file, tmp_path):
    path, expectation = corpus_file(name)
    _check(lambda: load_conversation(path.read_bytes(), name=name), expectation, tmp_path, name)


def test_duplicate_ids_keep_both_outputs(corpus_file, tmp_path):
    path, expectation = corpus_file("duplicate_tool_use_ids.json")
    store = OutputStore(tmp_path)
    result = run_pipeline(load_conversation(path), settings_for(expectation), store)
    assert len(result.persisted) == 2
    texts = sorted(store.read_slice(stored, 0, 1000) for stored in store.list_outputs())
    assert texts == ["first output " * 3, "second output " * 3]
