"""Following Gemini CLI as it records a session: the JSON-lines recording (cases/gemini_growing.jsonl,
written by hand: a message written again with its tokens and then its results, a compression note, a
rewind), and the .json recording gemini-cli rewrites whole at every message (cases/gemini_recording.json)."""

import json

import pytest

from compaction.errors import ConversationError
from compaction.live.follower import Follower
from compaction.live.session import CallUpdate
from tests.live.growing import CASES, calls, compactions, follow_line_by_line


def test_a_message_written_again_is_one_call(tmp_path):
    follower, reported = follow_line_by_line("gemini_growing.jsonl", tmp_path / "session-1.jsonl", cut=(5, 7, 10))
    found = calls(reported)
    assert [item.update.call.line for item in found] == [5, 7, 8, 11, 12, 16]
    assert [item.update.call.context for item in found] == [300_000, 400_000, 500_000, 118_000, 118_500, 119_000]
    assert found[0].update.call.output == 80  # thoughts are billed as output
    assert follower.title == "Gemini CLI"


def test_the_compression_note_is_the_compaction(tmp_path):
    _, reported = follow_line_by_line("gemini_growing.jsonl", tmp_path / "session-1.jsonl")
    [compaction] = compactions(reported)
    done = compaction.update.compaction
    assert (done.line, done.pre_tokens, done.post_tokens) == (10, 526_049, 115_614)
    assert calls(reported)[2].forecast.threshold == 524_288  # half of 1,048,576
    assert calls(reported)[2].forecast.calls_left == 1
    assert compaction.forecast.tokens_now == 115_614  # gemini-cli's note gives the compressed context
    assert calls(reported)[3].update.first_after_compaction


def test_a_rewind_is_said_and_the_calls_made_stay(tmp_path):
    follower, reported = follow_line_by_line("gemini_growing.jsonl", tmp_path / "session-1.jsonl")
    notes = [item.update for item in reported if getattr(item.update, "kind", None) == "rewind"]
    assert [note.line for note in notes] == [14]
    assert len(follower.session.calls) == 6


def test_a_recording_rewritten_at_every_message(tmp_path):
    whole = json.loads((CASES / "gemini_recording.json").read_text())
    path = tmp_path / "session-2026-03-30T03-06-0beddad7.json"
    path.write_text(json.dumps({**whole, "messages": []}))  # a new recording, no message yet
    follower = Follower(path)
    numbers = []
    for count in range(1, len(whole["messages"]) + 1):
        messages = [dict(message) for message in whole["messages"][:count]]
        if messages[-1]["type"] == "gemini":  # gemini-cli writes a response first, its tokens after
            first = {key: value for key, value in messages[-1].items() if key != "tokens"}
            path.write_text(json.dumps({**whole, "messages": [*messages[:-1], first]}))
            numbers += [item.update.call.number for item in follower.poll() if isinstance(item.update, CallUpdate)]
        path.write_text(json.dumps({**whole, "messages": messages}))
        numbers += [item.update.call.number for item in follower.poll() if isinstance(item.update, CallUpdate)]
    assert numbers == [1, 2, 3, 4]
    assert [call.line for call in (follower.session.calls[i] for i in range(4))] == [2, 3, 5, 6]
    assert follower.source.restarts == 0 and follower.source.whole
    assert all(read.start == 0 for read in follower.source.reads)  # a document is read whole, said by `whole`


def test_a_recording_cut_off_mid_write_waits(tmp_path):
    path = tmp_path / "session.json"
    text = (CASES / "gemini_recording.json").read_text()
    path.write_text(text[: len(text) // 2])
    follower = Follower(path)
    assert follower.poll() == [] and follower.source.partial == len(text) // 2
    path.write_text(text)
    assert len(calls(follower.poll())) == 4


def test_messages_dropped_from_a_recording_start_it_again(tmp_path):
    whole = json.loads((CASES / "gemini_recording.json").read_text())
    path = tmp_path / "session.json"
    path.write_text(json.dumps(whole))
    follower = Follower(path)
    follower.poll()
    path.write_text(json.dumps({**whole, "messages": whole["messages"][:2]}))
    reported = follower.poll()
    assert reported[0].update.reason.startswith("the recording was rewritten")
    assert len(follower.session.calls) == 1 and follower.source.restarts == 1


def test_a_json_file_that_is_no_recording_is_refused_by_name(tmp_path):
    path = tmp_path / "request.json"
    path.write_text(json.dumps({"model": "claude-sonnet-4-6", "messages": [{"role": "user", "content": "hi"}]}))
    follower = Follower(path)
    for _ in range(2):
        with pytest.raises(ConversationError, match=r"request.json: a .json file is followed as a Gemini CLI chat "):
            follower.poll()
