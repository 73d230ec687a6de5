"""A followed file inside COMPACTION_SESSION_FOLDERS that comes to lead outside them (swapped for a
symbolic link, its folder replaced by one) stops the follow with a message, and nothing more is read:
in the follower, and in `compaction watch` as a process."""

import os
import re

import pytest

from compaction.errors import ConversationError
from compaction.live.follower import Follower, Restarted
from compaction.live.places import followable
from tests.live.growing import CASES
from tests.live.watching import GrowingLog, Watch

LINES = (CASES / "claude_code_growing.jsonl").read_bytes().splitlines(keepends=True)
LEFT = "now leads outside the folders this server follows sessions in (COMPACTION_SESSION_FOLDERS: {}): " \
       "the follow stopped and nothing more is read"


def swap_for_link(path, target) -> None:
    """Put a symbolic link to `target` in the place of `path` in one step, as a rename does."""
    link = path.with_name(path.name + ".swap")
    link.symlink_to(target)
    os.replace(link, path)


@pytest.fixture
def places(tmp_path):
    allowed, outside = tmp_path / "allowed", tmp_path / "outside"
    allowed.mkdir()
    outside.mkdir()
    secret = outside / "other.jsonl"
    secret.write_bytes(b"".join(LINES))  # a whole log: following it would find 11 calls
    return allowed, secret


def test_a_followed_file_swapped_for_a_link_outside_is_not_read(places):
    allowed, secret = places
    path = allowed / "s.jsonl"
    path.write_bytes(b"".join(LINES[:9]))
    follower = Follower(followable(path, [allowed]), allowed=[allowed])
    follower.poll()
    assert len(follower.session.calls) == 2
    reads, offset = list(follower.source.reads), follower.source.offset
    swap_for_link(path, secret)
    for _ in range(2):  # said again at every later poll: the follow has stopped
        with pytest.raises(ConversationError) as stopped:
            follower.poll()
        assert str(stopped.value) == f"{path}: " + LEFT.format(allowed)
    assert len(follower.session.calls) == 2 and follower.source.offset == offset
    assert list(follower.source.reads) == reads  # not one byte of the other file
    path.unlink()
    path.write_bytes(b"".join(LINES))  # a real file back inside: still stopped
    with pytest.raises(ConversationError, match=re.escape(LEFT.format(allowed))):
        follower.poll()


def test_a_followed_files_folder_replaced_by_a_link_outside_stops_the_follow(places):
    allowed, secret = places
    folder = allowed / "project"
    folder.mkdir()
    (folder / "other.jsonl").write_bytes(b"".join(LINES[:9]))
    follower = Follower(followable(folder / "other.jsonl", [allowed]), allowed=[allowed])
    follower.poll()
    assert len(follower.session.calls) == 2
    folder.rename(allowed / "project.old")
    (allowed / "project").symlink_to(secret.parent, target_is_directory=True)  # same name, now outside
    with pytest.raises(ConversationError, match=re.escape(LEFT.format(allowed))):
        follower.poll()
    assert len(follower.session.calls) == 2


def test_without_a_list_a_swapped_file_is_read_again_from_the_start_as_before(places):
    allowed, secret = places
    path = allowed / "s.jsonl"
    path.write_bytes(b"".join(LINES[:9]))
    follower = Follower(followable(path, None))
    follower.poll()
    swap_for_link(path, secret)
    reported = follower.poll()
    assert isinstance(reported[0].update, Restarted)
    assert reported[0].update.reason == "the file was replaced by another one"
    assert len(follower.session.calls) == 11


def test_compaction_watch_stops_when_the_file_is_swapped_for_a_link_outside(places):
    allowed, secret = places
    log = GrowingLog(allowed / "s.jsonl")
    watch = Watch(log.path, env={"COMPACTION_SESSION_FOLDERS": str(allowed)})
    try:
        log.append(b"".join(LINES[:9]))
        watch.until(lambda found: found["event"] == "call" and found["call"] == 2)
        swap_for_link(log.path, secret)
        status, error = watch.to_the_end()
    finally:
        watch.close()
    assert status == 2
    assert error == f"compaction: error: {log.path}: " + LEFT.format(allowed) + "\n"
    assert [found["call"] for found in watch.events("call")] == [1, 2]
    assert not watch.events("restart")  # the other file was never taken for a new session
