"""Sessions page: a folder becomes one row per session (a corrupt file on its own row), selecting a row
opens that session everywhere, a .zip works like a folder, and the corpus sweep fills its heatmap."""

import io
import zipfile

import pytest

from compaction.corpus import analyse, discover
from tests.corpus.conftest import CORRUPT_NAME, local_cluster, write_small_corpus
from tests.hostile.apptest import loaded_header

from .conftest import chart_spec, metrics, open_page, start_app


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return write_small_corpus(tmp_path_factory.mktemp("sessions-page"))


def read_folder(at, folder):
    at.number_input(key="sessions_workers").set_value(1)
    at.text_input(key="sessions_folder").set_value(str(folder))
    return at.button(key="sessions_read").click().run()


@pytest.fixture
def sessions(corpus):
    at = open_page(start_app(), "sessions")
    return read_folder(at, corpus)


def table(at):
    [frame] = [frame for frame in at.dataframe if "session" in frame.value.columns]
    return frame.value


def test_a_folder_gives_one_row_per_session_and_the_corrupt_file_its_error(sessions):
    assert not sessions.exception
    frame = table(sessions)
    assert len(frame) == 7
    corrupt = frame[frame["path"] == CORRUPT_NAME].iloc[0]
    assert corrupt["error"].startswith(f"{CORRUPT_NAME}: not valid JSON")
    assert (frame["error"] == "").sum() == 6
    assert set(frame["format"]) == {"Anthropic", "Claude Code", "unreadable"}
    assert metrics(sessions)["Sessions"] == "7" and metrics(sessions)["Could not be read"] == "1"


def test_a_server_confined_to_some_folders_refuses_others_by_name(corpus, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPACTION_SESSION_FOLDERS", str(tmp_path))
    at = read_folder(open_page(start_app(), "sessions"), corpus)
    assert not at.exception
    assert any("outside the folders this server reads sessions from" in error.value
               and str(corpus) in error.value for error in at.error)
    assert not [frame for frame in at.dataframe if "session" in frame.value.columns]
    monkeypatch.setenv("COMPACTION_SESSION_FOLDERS", str(corpus.parent))
    at = read_folder(open_page(start_app(), "sessions"), corpus)
    assert len(table(at)) == 7


def test_a_server_without_folders_offers_only_uploads(monkeypatch):
    monkeypatch.setenv("COMPACTION_SESSION_FOLDERS", "")
    at = open_page(start_app(), "sessions")
    assert not at.exception
    assert at.text_input(key="sessions_folder").disabled and at.button(key="sessions_read").disabled
    assert any("upload a .zip" in info.value for info in at.info)


def test_a_server_confined_to_some_schedulers_refuses_others_by_name(corpus, monkeypatch):
    monkeypatch.setenv("COMPACTION_DASK_SCHEDULERS", "tcp://10.0.0.7:8786, tcp://10.0.0.8:8786")
    at = open_page(start_app(), "sessions")
    assert any("tcp://10.0.0.7:8786, tcp://10.0.0.8:8786" in caption.value for caption in at.caption)
    at.text_input(key="sessions_scheduler").set_value("tcp://203.0.113.9:8786")
    at = read_folder(at, corpus)
    assert not at.exception
    # the page escapes Markdown in the message: the backslashes are not shown
    assert [error.value.replace("\\", "") for error in at.error] == [
        "Dask scheduler tcp://203.0.113.9:8786 is not one this server may use "
        "(COMPACTION_DASK_SCHEDULERS: tcp://10.0.0.7:8786, tcp://10.0.0.8:8786)"]
    assert not [frame for frame in at.dataframe if "session" in frame.value.columns]


def test_a_server_without_schedulers_keeps_the_work_on_its_own_processes(corpus, monkeypatch):
    monkeypatch.setenv("COMPACTION_DASK_SCHEDULERS", "")
    at = open_page(start_app(), "sessions")
    assert at.text_input(key="sessions_scheduler").disabled
    at = read_folder(at, corpus)
    assert not at.error and len(table(at)) == 7


def test_filters_and_search_narrow_the_table(sessions):
    sessions.checkbox(key="sessions_only_errors").check().run()
    assert list(table(sessions)["path"]) == [CORRUPT_NAME]
    sessions.checkbox(key="sessions_only_errors").uncheck().run()
    sessions.text_input(key="sessions_search").set_value("pgsnap").run()
    assert list(table(sessions)["project"]) == ["-home-dev-pgsnap"]
    sessions.text_input(key="sessions_search").set_value("").run()
    sessions.multiselect(key="sessions_formats").set_value(["Anthropic"]).run()
    assert set(table(sessions)["format"]) == {"Anthropic"} and len(table(sessions)) == 2


def test_selecting_a_row_opens_that_session_in_the_other_pages(sessions, corpus):
    frame = table(sessions)
    position = next(i for i, path in enumerate(frame["path"]) if path.endswith(".jsonl"))
    path = frame["path"][position]
    sessions.session_state["sessions_table"] = {"selection": {"rows": [position], "columns": [], "cells": []}}
    sessions.run()
    assert not sessions.exception
    assert any(path in message.value for message in sessions.success)
    conversation = open_page(sessions, "conversation")
    assert loaded_header(conversation) == f"Loaded: {path}"
    assert metrics(conversation)["Messages"] == f"{int(frame['messages'][position]):,}"
    assert metrics(conversation)["Format"] == "Claude Code"


def test_selecting_the_corrupt_row_shows_its_error(sessions):
    position = list(table(sessions)["path"]).index(CORRUPT_NAME)
    sessions.session_state["sessions_table"] = {"selection": {"rows": [position], "columns": [], "cells": []}}
    sessions.run()
    assert any("cannot be opened" in error.value and "not valid JSON" in error.value for error in sessions.error)


def test_the_corpus_sweep_shows_median_and_p90_per_cell(sessions):
    sessions.text_input(key="sessions_sweep_values_context_limit").set_value("5000, 50000")
    sessions.text_input(key="sessions_sweep_values_keep_recent").set_value("0, 3").run()
    sessions.button(key="sessions_sweep").click().run()
    assert not sessions.exception
    [bar] = [bar for bar in sessions.get("progress") if "Swept" in bar.proto.text]
    assert bar.proto.text == "Swept 7 sessions with 1 worker process."
    heatmap = next(spec for i in range(len(sessions.get("plotly_chart")))
                   if (spec := chart_spec(sessions, i))["data"][0]["type"] == "heatmap")
    assert heatmap["data"][0]["x"] == ["5,000", "50,000"] and heatmap["data"][0]["y"] == ["0", "3"]
    assert all("<br>p90 " in text for row in heatmap["data"][0]["text"] for text in row)


def test_a_zip_upload_lists_its_sessions(corpus):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as opened:
        for path in sorted(corpus.rglob("*")):
            if path.is_file():
                opened.write(path, path.relative_to(corpus).as_posix())
        opened.writestr("../escape.json", "[]")
    at = open_page(start_app(), "sessions")
    at.number_input(key="sessions_workers").set_value(1)
    at.file_uploader(key="sessions_zip").set_value(("team.zip", buffer.getvalue(), "application/zip")).run()
    assert not at.exception
    frame = table(at)
    assert len(frame) == 8
    refused = frame[frame["path"] == "../escape.json"].iloc[0]
    assert refused["error"] == "../escape.json: its path would land outside the folder"



def test_a_dask_scheduler_address_runs_the_rows_on_the_cluster(corpus):
    at = open_page(start_app(), "sessions")
    with local_cluster() as cluster:
        at.text_input(key="sessions_scheduler").set_value(cluster.scheduler_address)
        at.text_input(key="sessions_folder").set_value(str(corpus))
        at.button(key="sessions_read").click().run()
    assert not at.exception
    assert any(bar.proto.text == f"Analysed 7 sessions on the Dask cluster at {cluster.scheduler_address}."
               for bar in at.get("progress"))
    rows = analyse(discover(corpus)).rows
    assert list(table(at)["path"]) == [row["path"] for row in rows]
    assert list(table(at)["tokens sent"].fillna(-1)) == [row["tokens_sent"] or -1 for row in rows]


def test_an_unreachable_scheduler_is_an_error_on_the_page(corpus, monkeypatch):
    from compaction.sweep import parallel as executors

    monkeypatch.setattr(executors, "DASK_CONNECT_TIMEOUT_S", 1)
    at = open_page(start_app(), "sessions")
    at.text_input(key="sessions_scheduler").set_value("tcp://127.0.0.1:1")
    at.text_input(key="sessions_folder").set_value(str(corpus))
    at.button(key="sessions_read").click().run()
    assert not at.exception
    assert any("cannot reach the Dask scheduler at tcp://127.0.0.1:1" in error.value for error in at.error)
