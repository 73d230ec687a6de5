"""A browser on another machine with no allow-list set: the typed folder, the agents' folders, the
followed file and the typed scheduler are each refused with the one sentence that says why and what the
server's owner sets, also shown before anything is typed. Uploads and the bundled samples keep working."""

from compaction.access import REMOTE_FOLDERS, REMOTE_SCHEDULERS
from tests.hostile.apptest import loaded_header

from .conftest import metrics, open_page, start_app
from .serving import (
    CLAUDE_LOG,
    follow,
    offered,
    read_folder,
    session_rows,
    shown,
    zipped,
)


def test_the_sessions_page_reads_no_folder_of_the_server(remote_browser, agent_home, served_corpus):
    at = open_page(start_app(), "sessions")
    assert not at.exception
    assert REMOTE_FOLDERS in shown(at.info) and REMOTE_SCHEDULERS in shown(at.info)
    assert not [button for button in at.button if button.key.startswith("sessions_use_agent_")]  # the agent's folder
    projects = agent_home / ".claude" / "projects"
    for folder in (served_corpus, projects, projects / ".." / ".."):
        at = read_folder(at, folder)
        assert not at.exception
        assert shown(at.error) == [REMOTE_FOLDERS] and session_rows(at) == []


def test_the_live_page_follows_nothing_of_the_server(remote_browser, agent_home):
    at = open_page(start_app(), "live")
    assert not at.exception
    assert REMOTE_FOLDERS in shown(at.info) and offered(at) == []  # no agent's session on offer
    at = follow(at, agent_home / CLAUDE_LOG)
    assert shown(at.error) == [REMOTE_FOLDERS]
    assert "Model calls" not in metrics(at)
    at.session_state["_live_asked"] = str(agent_home / CLAUDE_LOG)  # as the Sessions page's Follow it live asks
    at = open_page(at, "live")
    assert shown(at.error) == [REMOTE_FOLDERS] and "Model calls" not in metrics(at)


def test_a_typed_scheduler_is_refused_and_an_upload_still_works(remote_browser, served_corpus):
    at = open_page(start_app(), "sessions")
    at.number_input(key="sessions_workers").set_value(1)
    at.text_input(key="sessions_scheduler").set_value("tcp://203.0.113.9:8786")
    at = at.file_uploader(key="sessions_zip").set_value(("team.zip", zipped(served_corpus), "application/zip")).run()
    assert not at.exception
    assert shown(at.error) == [REMOTE_SCHEDULERS] and session_rows(at) == []
    at.text_input(key="sessions_scheduler").set_value("")
    at = at.button(key="sessions_analyse").click().run()  # on this server's own processes
    assert not at.error and len(session_rows(at)) == 7
    position = next(i for i, path in enumerate(session_rows(at)) if path.endswith(".jsonl"))
    at.session_state["sessions_table"] = {"selection": {"rows": [position], "columns": [], "cells": []}}
    at = at.run()  # an uploaded session opens for every page, with nothing to follow live
    assert not at.exception and not at.error and at.success
    assert not [button for button in at.button if button.key == "sessions_follow_live"]


def test_the_bundled_samples_still_load(remote_browser):
    at = start_app()
    assert not at.exception and not at.error
    assert loaded_header(at).startswith("Loaded: ")
    assert metrics(at)["Messages"] != "0"
