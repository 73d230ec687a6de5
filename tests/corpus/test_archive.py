"""Unpacking a .zip of sessions: only session files, nothing written outside the folder, bounds kept."""

import io
import stat
import zipfile

import pytest

from compaction.corpus import archive, unpack_sessions
from compaction.errors import ConversationError

SESSION = b'[{"role": "user", "content": "hello"}]'


def make_zip(path, members: dict[str, bytes], links: dict[str, str] | None = None):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as opened:
        for name, data in members.items():
            opened.writestr(name, data)
        for name, target in (links or {}).items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            opened.writestr(info, target)
    return path


def test_session_files_are_unpacked_under_the_folder(tmp_path):
    source = make_zip(tmp_path / "s.zip", {"projects/p1/a.jsonl": SESSION, "b.json": SESSION,
                                           "notes.txt": b"not a session", "dir/": b""})
    unpacked = unpack_sessions(source, tmp_path / "out")
    assert sorted(unpacked.files) == ["b.json", "projects/p1/a.jsonl"]
    assert (tmp_path / "out" / "projects" / "p1" / "a.jsonl").read_bytes() == SESSION
    assert not (tmp_path / "out" / "notes.txt").exists()
    assert [item.relative for item in unpacked.sessions()] == ["b.json", "projects/p1/a.jsonl"]


@pytest.mark.parametrize("name", ["../escape.json", "a/../../escape.json", "/abs/escape.json", "C:/escape.json",
                                  "..\\escape.json"])
def test_a_name_that_would_land_outside_is_skipped_and_reported(tmp_path, name):
    source = make_zip(tmp_path / "s.zip", {name: SESSION, "ok.json": SESSION})
    unpacked = unpack_sessions(source, tmp_path / "out" / "deeper")
    assert unpacked.files == ["ok.json"]
    assert unpacked.skipped == {name: "its path would land outside the folder"}
    assert sorted(path.name for path in tmp_path.rglob("*.json")) == ["ok.json"]
    rows = {item.relative: item.refused for item in unpacked.sessions()}
    assert rows[name] == "its path would land outside the folder"


def test_a_link_member_is_not_unpacked(tmp_path):
    source = make_zip(tmp_path / "s.zip", {"ok.json": SESSION}, links={"link.json": "/etc/passwd"})
    unpacked = unpack_sessions(source, tmp_path / "out")
    assert unpacked.files == ["ok.json"]
    assert unpacked.skipped == {"link.json": "a symbolic link; links are not unpacked"}
    assert not (tmp_path / "out" / "link.json").exists()


@pytest.mark.filterwarnings("ignore:Duplicate name")
def test_a_name_given_twice_keeps_the_first(tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as opened:
        opened.writestr("a.json", SESSION)
        opened.writestr("a.json", b"second")
    (tmp_path / "s.zip").write_bytes(buffer.getvalue())
    unpacked = unpack_sessions(tmp_path / "s.zip", tmp_path / "out")
    assert unpacked.files == ["a.json"] and (tmp_path / "out" / "a.json").read_bytes() == SESSION
    assert unpacked.skipped == {"a.json": "the archive holds this name twice; the first was kept"}


def test_a_member_over_the_file_bound_is_skipped(tmp_path, monkeypatch):
    monkeypatch.setattr(archive.limits, "MAX_FILE_BYTES", 100)
    source = make_zip(tmp_path / "s.zip", {"big.json": b"[" + b" " * 200 + b"]", "ok.json": SESSION})
    unpacked = unpack_sessions(source, tmp_path / "out")
    assert unpacked.files == ["ok.json"]
    assert "larger than" in unpacked.skipped["big.json"]
    assert not (tmp_path / "out" / "big.json").exists()


def test_an_archive_unpacking_past_the_total_bound_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(archive, "MAX_TOTAL_BYTES", 1000)
    # 600 bytes each compress to almost nothing: the bound counts what is written, not the headers
    source = make_zip(tmp_path / "bomb.zip", {"a.json": b" " * 600, "b.json": b" " * 600})
    with pytest.raises(ConversationError, match="bomb.zip: unpacks to more than"):
        unpack_sessions(source, tmp_path / "out")
    assert not (tmp_path / "out" / "b.json").exists()


def test_too_many_members_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(archive, "MAX_MEMBERS", 2)
    source = make_zip(tmp_path / "many.zip", {f"{n}.json": SESSION for n in range(3)})
    with pytest.raises(ConversationError, match="many.zip: holds 3 entries, above the maximum of 2"):
        unpack_sessions(source, tmp_path / "out")


def test_a_file_that_is_not_a_zip_is_named(tmp_path):
    (tmp_path / "fake.zip").write_bytes(b"PK not really")
    with pytest.raises(ConversationError, match="fake.zip: not a readable .zip archive"):
        unpack_sessions(tmp_path / "fake.zip", tmp_path / "out")
