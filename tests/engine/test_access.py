"""What a user reaches (compaction/access.py): a browser on this machine anything the variables leave
unset, one on another machine nothing of the server's unless the variables name it."""

import os

import pytest

from compaction.access import REMOTE_FOLDERS, REMOTE_SCHEDULERS, is_local, reach
from compaction.errors import CompactionError, ConversationError


@pytest.mark.parametrize(("address", "local"), [
    (None, True), ("127.0.0.1", True), ("127.8.0.1", True), ("::1", True), ("::ffff:127.0.0.1", True),
    ("10.0.0.7", False), ("192.0.2.2", False), ("2001:db8::1", False), ("::ffff:10.0.0.7", False),
    ("", False), ("not an address", False), (object(), False)])
def test_only_loopback_or_no_address_is_this_machine(address, local):
    assert is_local(address) is local


def test_unset_a_browser_here_reaches_anything_and_one_elsewhere_nothing():
    here, elsewhere = reach(remote=False, environ={}), reach(remote=True, environ={})
    assert here.allowed_folders() is None and here.folders_refusal is None
    assert here.scheduler("tcp://10.0.0.5:8786") == "tcp://10.0.0.5:8786"
    assert elsewhere.folders_refusal == REMOTE_FOLDERS
    with pytest.raises(ConversationError) as refused:
        elsewhere.allowed_folders()
    assert str(refused.value) == REMOTE_FOLDERS
    assert "another machine" in REMOTE_FOLDERS and "COMPACTION_SESSION_FOLDERS" in REMOTE_FOLDERS
    with pytest.raises(CompactionError) as refused:
        elsewhere.scheduler("tcp://10.0.0.5:8786")
    assert str(refused.value) == REMOTE_SCHEDULERS and "COMPACTION_DASK_SCHEDULERS" in REMOTE_SCHEDULERS
    assert elsewhere.scheduler(None) is None  # the work on this machine is always there


def test_the_lists_hold_for_every_browser(tmp_path):
    environ = {"COMPACTION_SESSION_FOLDERS": f"{tmp_path / 'a'}{os.pathsep} {tmp_path / 'b'} ",
               "COMPACTION_DASK_SCHEDULERS": "tcp://10.0.0.7:8786, tcp://10.0.0.8:8786"}
    for remote in (False, True):
        found = reach(remote, environ)
        assert found.folders_refusal is None and found.schedulers_refusal is None
        assert found.allowed_folders() == [tmp_path / "a", tmp_path / "b"]
        assert found.scheduler("tcp://10.0.0.8:8786") == "tcp://10.0.0.8:8786"
        with pytest.raises(CompactionError, match=r"^Dask scheduler tcp://10\.0\.0\.9:8786 is not one this server "
                                                  r"may use \(COMPACTION_DASK_SCHEDULERS: tcp://10\.0\.0\.7:8786, "):
            found.scheduler("tcp://10.0.0.9:8786")
    empty = reach(True, {"COMPACTION_SESSION_FOLDERS": "", "COMPACTION_DASK_SCHEDULERS": ""})
    assert empty.allowed_folders() == [] and empty.folders_refusal is None
    with pytest.raises(CompactionError, match="none: the work runs on this machine"):
        empty.scheduler("tcp://10.0.0.7:8786")
