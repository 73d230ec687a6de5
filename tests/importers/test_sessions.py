"""A file of several sessions, one mechanism for every format that lists them (Format.sessions): an Aider
history's runs (sessions/aider_three_runs.md, written by hand in the layout of Aider 0.86's histories:
three runs, each opened by `# aider chat started at`), listed from a path or an upload's bytes, each read
alone with its lines numbered as in the file, and a corpus row for each."""

import shutil
from pathlib import Path

import pytest

from compaction.corpus.files import discover
from compaction.errors import ConversationError
from compaction.importers import RunKey, load_conversation, load_run, sessions_in
from compaction.storage import keep_upload, kept_upload

HISTORY = Path(__file__).parent / "sessions" / "aider_three_runs.md"
STARTS = ("2026-04-07 08:12:40", "2026-04-07 10:03:55", "2026-04-08 09:20:11")


def test_an_aider_history_lists_its_three_runs_by_its_default_name_or_as_an_upload(tmp_path):
    named = tmp_path / ".aider.chat.history.md"
    shutil.copy(HISTORY, named)
    found = sessions_in(named)
    assert [key.instance for key in found] == list(STARTS)
    assert [key.name for key in found] == [f"run {n}, started {start}" for n, start in enumerate(STARTS, 1)]
    assert {key.format for key in found} == {"aider"}
    kept = tmp_path / "kept-under-its-hash"
    shutil.copy(HISTORY, kept)
    assert sessions_in(kept, "aider.chat.history.md") == found  # an upload: known by its first lines
    shutil.copy(HISTORY, tmp_path / "notes.md")
    assert sessions_in(tmp_path / "notes.md") == ()  # a name no format with sessions comes in: not read


def test_each_run_is_read_alone_and_the_whole_file_still_reads_as_before():
    data = HISTORY.read_bytes()
    runs = [load_run(HISTORY, key, name="h.md") for key in sessions_in(HISTORY, "h.md")]
    asked = [run.messages[0]["content"] for run in runs]
    assert asked[0].startswith("the coupon is applied twice") and asked[1].startswith("add a test")
    assert asked[2].startswith("why does total() round down")
    assert [len(run.messages) for run in runs] == [2, 2, 2]
    assert sum(len(run.messages) for run in runs) == len(load_conversation(data, name="h.md").messages)


def test_a_run_no_longer_where_it_was_is_refused_with_its_line(tmp_path):
    key = RunKey(29, "run 2, started 2026-04-07 10:03:55", "2026-04-07 10:03:55", "aider")
    changed = tmp_path / ".aider.chat.history.md"
    changed.write_bytes(HISTORY.read_bytes().replace(b"10:03:55", b"10:04:00"))
    with pytest.raises(ConversationError, match="line 29 no longer starts run 2"):
        load_run(changed, key, name="h.md")


def test_a_corpus_lists_each_run_of_a_history(tmp_path):
    shutil.copy(HISTORY, tmp_path / ".aider.chat.history.md")
    found = discover(tmp_path)
    assert [item.run.instance for item in found] == list(STARTS)


def test_an_upload_is_kept_under_its_hash_and_found_by_it_only(tmp_path):
    data = HISTORY.read_bytes()
    digest = keep_upload(tmp_path, data, "aider.chat.history.md")
    assert kept_upload(tmp_path, digest) == (data, "aider.chat.history.md")
    assert kept_upload(tmp_path, digest[:-1] + ("0" if digest[-1] != "0" else "1")) is None
    assert kept_upload(tmp_path, "../" + digest) is None and kept_upload(tmp_path, "") is None
    assert (tmp_path / "uploads").stat().st_mode & 0o777 == 0o700
    assert (tmp_path / "uploads" / digest).stat().st_mode & 0o777 == 0o600
