"""The follower over a file's life: truncated and written again (a new session, said), removed (said
once) and back (read from the start)."""

import pytest

from compaction.errors import ConversationError
from compaction.live.follower import Follower, Gone, Restarted
from tests.live.growing import CASES

LINES = (CASES / "claude_code_growing.jsonl").read_bytes().splitlines(keepends=True)


def test_a_log_truncated_and_written_again_is_a_new_session_and_said(tmp_path):
    path = tmp_path / "s.jsonl"
    lines = LINES
    path.write_bytes(b"".join(lines[:24]))
    follower = Follower(path)
    follower.poll()
    assert len(follower.session.calls) == 8
    path.write_bytes(b"".join(lines[:9]))  # /clear and a new start in the same file, or a copy written over it
    reported = follower.poll()
    assert reported[0].update.reason.startswith("the file was truncated")
    assert len(follower.session.calls) == 2 and follower.source.restarts == 1
    assert follower.source.reads[-1].start == 0 and follower.source.reads[-1].restarted


def test_a_file_removed_is_said_once_and_read_from_the_start_when_it_is_back(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(LINES[:9]))
    follower = Follower(path)
    follower.poll()
    path.unlink()
    assert [type(item.update) for item in follower.poll()] == [Gone]
    assert follower.poll() == []  # said once
    path.write_bytes(b"".join(LINES[:24]))
    reported = follower.poll()
    assert isinstance(reported[0].update, Restarted) and len(follower.session.calls) == 8


def test_a_file_that_is_no_log_stays_refused(tmp_path):
    path = tmp_path / "notes.jsonl"
    path.write_text('{"role": "user", "content": "hi"}\n{"type": "user", "uuid": "u1"}\n')
    follower = Follower(path)
    for _ in range(2):  # the second poll says the same, and reads nothing more
        with pytest.raises(ConversationError, match=r"notes.jsonl: line 1: not a line of a Claude Code"):
            follower.poll()
    assert follower.source.offset == len(b'{"role": "user", "content": "hi"}\n')
