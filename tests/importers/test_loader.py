"""The loader's behaviour beyond single files: limits, sources, forced formats, round trips, samples."""

import gzip
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compaction.agents.claude_code.sample_log import ClaudeCodeLog
from compaction.errors import ConversationError
from compaction.generate import realistic_session
from compaction.generate.openai_export import to_openai
from compaction.importers import load_conversation, source
from compaction.model.validity import check_pairs

SAMPLES = Path(__file__).parents[2] / "sample_data"
CHAT = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]


def test_refuses_bytes_above_the_maximum_size(monkeypatch):
    monkeypatch.setattr(source, "MAX_FILE_BYTES", 10)
    with pytest.raises(ConversationError, match="above the maximum"):
        load_conversation(json.dumps(CHAT).encode(), name="big.json")


def test_refuses_a_file_above_the_maximum_size_before_reading_it(monkeypatch, tmp_path):
    monkeypatch.setattr(source, "MAX_FILE_BYTES", 10)
    path = tmp_path / "big.json"
    path.write_text(json.dumps(CHAT))
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("read a file that is too large"))
    with pytest.raises(ConversationError, match="big.json: file is"):
        load_conversation(path)


@pytest.mark.parametrize(("make", "expected"), [
    (lambda tmp: tmp / "missing.json", "no such file"),
    (lambda tmp: tmp, "is a directory"),
])
def test_bad_paths_are_conversation_errors(tmp_path, make, expected):
    with pytest.raises(ConversationError, match=expected):
        load_conversation(make(tmp_path))


def test_unknown_format_and_unknown_source_type_are_refused():
    with pytest.raises(ConversationError, match="unknown format 'yaml'"):
        load_conversation(b"[]", format="yaml")
    with pytest.raises(ConversationError, match="expected a file path or bytes, got int"):
        load_conversation(42)


def test_a_utf8_bom_is_accepted():
    assert load_conversation(b"\xef\xbb\xbf" + json.dumps(CHAT).encode()).messages == CHAT


def test_a_jsonl_line_that_is_not_utf8_is_skipped_and_named():
    data = b'{"role": "user", "content": "ok"}\n{"role": "assistant", "content": "\xc3("}\n'
    conversation = load_conversation(data, name="t.jsonl")
    assert conversation.messages == [{"role": "user", "content": "ok"}]
    assert [str(w) for w in conversation.warnings] == [
        "line 2: 1 line skipped, not JSON objects: line 2 (not valid UTF-8)"]


def test_invalid_utf8_in_a_json_document_names_offset_and_line():
    data = b'[{"role": "user",\n "content": "\xc3("}]'
    with pytest.raises(ConversationError, match=r"byte 0xc3 at byte offset 31 \(line 2\)"):
        load_conversation(data, name="t.json")


def test_a_file_that_is_no_text_is_told_so_and_a_stray_byte_is_named():
    gzipped = gzip.compress(b'{"role": "user", "content": "ok"}\n' * 20)
    utf16 = json.dumps(CHAT).encode("utf-16")
    for name, data in (("session.jsonl", gzipped), ("chat.json", utf16), ("notes.md", bytes(range(256)) * 4)):
        with pytest.raises(ConversationError) as raised:
            load_conversation(data, name=name)
        assert str(raised.value) == (f"{name}: this is not a text log: is it the right file? "
                                     f"(it starts with the bytes {data[:4].hex(' ')}, not text)")
    # one byte that is not UTF-8, deep in a text file, is still named where it is
    data = b'[{"role": "user",\n "content": "' + b"word " * 2_000 + b'\xb0"}]'
    with pytest.raises(ConversationError, match=r"not valid UTF-8: byte 0xb0 at byte offset 10031 \(line 2\)"):
        load_conversation(data, name="t.json")


def test_forced_format_overrides_detection():
    openai_looking = [{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "x", "content": "r"}]
    with pytest.raises(ConversationError, match=r"messages\[1\]: role must be 'user' or 'assistant'"):
        load_conversation(json.dumps(openai_looking).encode(), format="anthropic")
    assert load_conversation(json.dumps(CHAT).encode(), format="openai").format == "openai"


def test_forcing_claude_code_on_a_messages_list_says_what_is_wrong():
    with pytest.raises(ConversationError, match="no user or assistant lines.*line 1: a list, not an object"):
        load_conversation(json.dumps(CHAT).encode(), format="claude-code", name="chat.json")


def test_claude_code_warning_for_unknown_block_carries_line_and_index():
    lines = [{"type": "user", "message": {"role": "user", "content": "go"}},
             {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "future_block"}]}}]
    text = "\n".join(json.dumps(line) for line in lines)
    conversation = load_conversation(text.encode(), format="claude-code")
    assert [str(w) for w in conversation.warnings] == [
        "line 2, message 1: content[0]: unknown block type 'future_block' kept as it is"]


def test_the_last_line_of_the_file_ends_the_session_whatever_its_timestamp():
    # Lines are appended as they happen; after a manual /compact Claude Code writes lines whose
    # timestamps are earlier than the boundary's, so the file's order is the one to trust.
    lines = [
        {"type": "user", "uuid": "u", "parentUuid": None, "timestamp": "2025-01-01T10:00:00Z",
         "message": {"role": "user", "content": "root"}},
        {"type": "assistant", "uuid": "late", "parentUuid": "u", "timestamp": "2025-01-01T12:00:00Z",
         "message": {"role": "assistant", "content": "newest branch"}},
        {"type": "assistant", "uuid": "early", "parentUuid": "u", "timestamp": "2025-01-01T11:00:00Z",
         "message": {"role": "assistant", "content": "older branch"}},
    ]
    text = "\n".join(json.dumps(line) for line in lines)
    conversation = load_conversation(text.encode())
    assert conversation.messages[-1]["content"] == "older branch"
    assert [str(w) for w in conversation.warnings] == [
        "line 2: 1 message line(s) on abandoned branches (rewinds) left out"]


def test_missing_parent_is_a_warning_not_a_failure():
    line = {"type": "user", "uuid": "u2", "parentUuid": "gone", "message": {"role": "user", "content": "hi"}}
    conversation = load_conversation(json.dumps(line).encode() + b"\n" + json.dumps(line | {"uuid": "u3",
                                     "parentUuid": "u2"}).encode())
    # consecutive user lines are one turn, as the Messages API merges them
    assert conversation.messages == [{"role": "user", "content": [{"type": "text", "text": "hi"}] * 2}]
    assert any("'gone' is not in the file" in str(w) for w in conversation.warnings)


@settings(max_examples=15, deadline=None)
@given(turns=st.integers(1, 40), seed=st.integers(0, 10_000), parallel=st.floats(0, 1))
def test_generated_session_survives_a_claude_code_round_trip(turns, seed, parallel):
    messages = realistic_session(turns=turns, typical_output=200, max_output=2000, parallel_share=parallel,
                                 seed=seed)
    for ids in (True, False):  # with message ids, and without (a re-exported log)
        log = ClaudeCodeLog(seed=seed, ids=ids)
        log.messages(messages)
        loaded = load_conversation(log.jsonl().encode(), name="s.jsonl")
        assert loaded.format == "claude-code"
        assert loaded.messages == messages
        assert loaded.warnings == []


@settings(max_examples=15, deadline=None)
@given(turns=st.integers(1, 40), seed=st.integers(0, 10_000))
def test_generated_session_survives_an_openai_round_trip(turns, seed):
    messages = realistic_session(turns=turns, typical_output=200, max_output=2000, parallel_share=0.5, seed=seed)
    loaded = load_conversation(json.dumps(to_openai(messages, system="sys")).encode())
    assert loaded.format == "openai"
    assert loaded.system == "sys"
    assert loaded.messages == [_as_openai_keeps_it(m) for m in messages]
    assert check_pairs(loaded.messages) == []


def _as_openai_keeps_it(message: dict) -> dict:
    """What survives OpenAI's form: no is_error flag, and a text-only message is a plain string."""
    content = message["content"]
    if isinstance(content, str):
        return message
    if all(block["type"] == "text" for block in content):
        return {"role": message["role"], "content": "\n".join(block["text"] for block in content)}
    return {"role": message["role"], "content": [
        {key: value for key, value in block.items() if key != "is_error"} for block in content]}


@pytest.mark.parametrize(("name", "fmt", "messages"), [
    ("anthropic_request.json", "anthropic", 21),
    ("claude_code_session.jsonl", "claude-code", 30),
    ("claude_code_long_session.jsonl", "claude-code", 643),
    ("openai_chat.json", "openai", 25),
    ("seed_demo.json", "anthropic", 123),
    ("realistic_session.json", "anthropic", 1001),
])
def test_sample_files_load_with_valid_pairs(name, fmt, messages):
    conversation = load_conversation(SAMPLES / name)
    assert (conversation.format, len(conversation.messages)) == (fmt, messages)
    assert check_pairs(conversation.messages) == []


def test_claude_code_sample_shows_every_quirk():
    conversation = load_conversation(SAMPLES / "claude_code_session.jsonl")
    meta = conversation.metadata
    assert meta["compact_boundaries"] == [{"index": 23, "trigger": "auto", "pre_tokens": 154_312,
                                          "time": "2025-03-14T09:10:09Z"}]
    assert meta["compact_summary_indices"] == [23]
    assert (meta["sidechain_lines_skipped"], meta["branch_lines_skipped"], meta["unknown_lines_skipped"]) == (4, 2, 0)
    assert conversation.tools == [] and conversation.system is None
    assert [str(w) for w in conversation.warnings] == [
        "line 18: 2 message line(s) on abandoned branches (rewinds) left out",
        "4 sidechain (subagent) line(s) left out"]
    calls = [i for i, m in enumerate(conversation.messages) if m["role"] == "assistant"]
    assert [i for i, u in enumerate(conversation.usage) if u is not None] == calls  # one usage per response


def test_long_claude_code_sample_records_what_each_call_carried():
    conversation = load_conversation(SAMPLES / "claude_code_long_session.jsonl")
    boundaries = conversation.metadata["compact_boundaries"]
    assert [b["trigger"] for b in boundaries] == ["auto", "auto"]
    # the agent compacted when the context passed 155,000 tokens (its window less the buffer)
    assert all(155_000 < b["pre_tokens"] < 200_000 for b in boundaries)
    carried = [u["input_tokens"] + u["cache_creation_input_tokens"] + u["cache_read_input_tokens"]
               for u in conversation.usage if u is not None]
    assert len(carried) == 320 and min(carried) > 17_800  # every call sends the system prompt and tools


def test_an_openhands_object_with_history_and_events_is_read_from_history():
    """Detection and loading both take 'history' when an object has both keys (an evaluation record whose
    'events' is something else): the conversation is the one its history holds."""
    events = json.loads((Path(__file__).parent / "cases" / "valid" / "openhands_events.json").read_text())
    record = {"instance_id": "dates-1", "history": events, "events": [{"id": 0, "kind": "metric", "value": 3}]}
    loaded = load_conversation(json.dumps(record).encode(), name="record.json")
    assert loaded.format == "openhands"
    assert loaded.messages == load_conversation(json.dumps(events).encode(), name="events.json").messages
