"""Isolation: each session has its own private store under the configurable root, one session cannot
list or read another's files, and session folders idle longer than SESSION_MAX_AGE_S are removed."""

import os
import stat
import time

import pytest

from compaction import OutputStore
from compaction.errors import CompactionError
from compaction.storage.workspaces import SESSION_MAX_AGE_S, new_session_store, remove_stale_sessions

from .apptest import UPLOAD_KEY, session_root, shown_text, start_app, upload


def _age(folder, seconds: float) -> None:
    """Set the mtime of a session folder and its sub-folders `seconds` into the past."""
    past = time.time() - seconds
    for path in [folder, *(p for p in folder.rglob("*") if p.is_dir())]:
        os.utime(path, (past, past))


def test_a_session_store_is_private_and_unguessable(tmp_path):
    first, second = new_session_store(tmp_path / "root"), new_session_store(tmp_path / "root")
    assert first.root != second.root and first.root.parent == second.root.parent == tmp_path / "root"
    assert len(first.root.name) == len("session-") + 32
    assert stat.S_IMODE(first.root.stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "root").stat().st_mode) == 0o700


def test_stale_sessions_are_removed_and_fresh_ones_kept(tmp_path):
    root = tmp_path / "root"
    old, fresh, mine = (new_session_store(root) for _ in range(3))
    old.persist("t1", "old output")
    fresh.persist("t2", "recent output")
    _age(old.root, SESSION_MAX_AGE_S + 60)
    _age(fresh.root, SESSION_MAX_AGE_S - 60)
    _age(mine.root, SESSION_MAX_AGE_S * 10)  # the caller's own session is never removed
    removed = remove_stale_sessions(root, keep=(mine.root,))
    assert removed == [old.root]
    assert not old.root.exists() and fresh.root.exists() and mine.root.exists()
    assert fresh.read("t2") == "recent output"


def test_a_recent_file_keeps_an_old_session(tmp_path):
    root = tmp_path / "root"
    session = new_session_store(root)
    _age(session.root, SESSION_MAX_AGE_S * 2)
    session.save_transcript([{"role": "user", "content": "still here"}])  # touches transcripts/
    assert remove_stale_sessions(root) == []
    now = time.time() + SESSION_MAX_AGE_S + 1  # a fake clock a day later
    assert remove_stale_sessions(root, now=now) == [session.root]


def test_activity_in_a_nested_folder_keeps_a_session(tmp_path):
    root = tmp_path / "root"
    session = new_session_store(root)
    replays = OutputStore(session.root / "replays")  # the dashboard's replays write one level down
    replays.persist("r", "replayed")
    _age(session.root, SESSION_MAX_AGE_S * 2)
    replays.save_transcript([{"role": "user", "content": "recent"}])
    assert remove_stale_sessions(root) == []


@pytest.mark.parametrize("make", ["symlink", "world_writable"])
def test_an_unsafe_root_is_refused(tmp_path, make):
    target = tmp_path / "elsewhere"
    target.mkdir()
    root = tmp_path / "root"
    if make == "symlink":  # planted before the first start, e.g. in /tmp
        root.symlink_to(target)
    else:
        root.mkdir()
        root.chmod(0o777)
    with pytest.raises(CompactionError, match="session store root"):
        new_session_store(root)
    assert list(target.iterdir()) == []


def test_cleanup_touches_only_session_folders(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    outside = tmp_path / "precious"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep")
    link = root / ("session-" + "a" * 32)
    link.symlink_to(outside)  # a symlink named like a session: not followed, not removed
    other = root / "notes"
    other.mkdir()
    lookalike = root / "session-not-a-session"
    lookalike.mkdir()
    for path in (outside, other, lookalike):
        os.utime(path, (0, 0))
    assert remove_stale_sessions(root, now=time.time() + 10 * SESSION_MAX_AGE_S) == []
    assert (outside / "keep.txt").read_text() == "keep" and other.exists() and lookalike.exists()
    assert remove_stale_sessions(tmp_path / "missing") == []


def test_two_app_sessions_cannot_see_each_others_files(store_root):
    private = ('[{"role": "user", "content": "go"}, {"role": "assistant", "content": [{"type": "tool_use", '
               '"id": "alpha-private-id", "name": "bash", "input": {}}]}, {"role": "user", "content": '
               '[{"type": "tool_result", "tool_use_id": "alpha-private-id", "content": "ALPHA ' + "a" * 300_000
               + '"}]}]')
    alice, bob = start_app(), start_app()
    upload(alice, "alice.json", private.encode())
    assert not alice.exception and not alice.error
    alice.switch_page("app_pages/persisted_outputs.py").run()
    bob.switch_page("app_pages/persisted_outputs.py").run()
    assert not alice.exception and not bob.exception
    alice_root, bob_root = session_root(alice), session_root(bob)
    assert alice_root.parent == bob_root.parent == store_root and alice_root != bob_root
    # Alice's output is on her page and in her folder only
    assert "alpha-private-id" in shown_text(alice)
    assert "alpha-private-id" not in shown_text(bob) and str(alice_root) not in shown_text(bob)
    bob_store = bob.session_state["_output_store"]
    assert all(stored.tool_use_id != "alpha-private-id" for stored in bob_store.list_outputs())
    assert bob_store.find("alpha-private-id") is None
    assert not any("ALPHA" in path.read_text(errors="replace")[:10] for path in bob_root.rglob("*.txt"))
    # Bob, on the uploader, still has the default sample, not Alice's upload
    bob.switch_page("app_pages/conversation.py").run()
    assert bob.file_uploader(key=UPLOAD_KEY).value is None
    assert "alice.json" not in shown_text(bob)


def test_the_app_removes_stale_session_folders_when_a_session_starts(store_root):
    stale = new_session_store(store_root)
    stale.persist("t", "left behind")
    _age(stale.root, SESSION_MAX_AGE_S + 1)
    at = start_app().switch_page("app_pages/pipeline.py").run()  # the first page that needs the store
    assert not at.exception
    assert not stale.root.exists()
    assert session_root(at).parent == store_root
