"""The store: safe file names from user-controlled ids, byte-exact files, listing and reading back."""

import pytest

from compaction import OutputStore
from compaction.storage.outputs import safe_name

HOSTILE_IDS = ["../../x", "../../../etc/passwd", "/etc/passwd", "a/b/c", "a\x00b", "..", ".", "",
               "x" * 10_000, "C:\\windows\\system32", "~root", "id with spaces", "ünïcödé", "a\nb"]


@pytest.mark.parametrize("tool_use_id", HOSTILE_IDS)
def test_hostile_ids_stay_inside_the_root(tmp_path, tool_use_id):
    store = OutputStore(tmp_path / "store")
    stored = store.persist(tool_use_id, "payload")
    assert stored.path.resolve().parent == (tmp_path / "store" / "tool-results").resolve()
    assert len(stored.path.name) < 120
    assert store.read(tool_use_id) == "payload"
    assert [p for p in tmp_path.rglob("*") if p.is_file() and "store" not in p.parts] == []


def test_distinct_ids_never_share_a_file():
    names = {safe_name(i) for i in ["a/b", "a_b", "a\x00b", "a:b"]}
    assert len(names) == 4


def test_plain_ids_keep_their_name(tmp_path):
    assert OutputStore(tmp_path).persist("toolu_01ABC", "x").path.name == "toolu_01ABC.txt"


def test_reused_id_with_other_content_keeps_both(tmp_path):
    store = OutputStore(tmp_path)
    first = store.persist("dup", "one")
    second = store.persist("dup", "two")
    assert first.path != second.path
    assert first.path.read_text() == "one" and second.path.read_text() == "two"


def test_listing_and_paged_reading(tmp_path):
    store = OutputStore(tmp_path)
    store.persist("a", "0123456789", tool="bash")
    store.persist("b", "xyz", tool="grep")
    listed = {s.tool_use_id: s for s in store.list_outputs()}
    assert set(listed) == {"a", "b"} and listed["a"].tool == "bash" and listed["a"].bytes == 10
    assert store.read_slice(listed["a"], 3, 4) == "3456"


def test_transcripts_are_one_message_per_line(tmp_path):
    import json

    store = OutputStore(tmp_path)
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]
    first, second = store.save_transcript(messages), store.save_transcript(messages)
    assert first != second
    assert [json.loads(line) for line in first.read_text().splitlines()] == messages
    assert store.list_transcripts() == sorted([first, second])


def test_pages_join_to_the_output_without_cutting_characters(tmp_path):
    store = OutputStore(tmp_path)
    output = "aé€😀\ud800z" * 50
    stored = store.persist("multi", output)
    for page in (1, 2, 3, 5, 7):
        pages = [store.read_slice(stored, start, page) for start in range(0, stored.bytes, page)]
        assert "".join(pages) == output, page
        assert all("\ufffd" not in text for text in pages)
