"""Sessions page over an evaluation output of several runs: one row per run, named by its instance, and
a run opened from the table is the session every page shows; a log that gives only its run's totals says
so in the table and on the Replay page."""

import shutil
from pathlib import Path

import pytest

from dashboard.render.corpus_tables import FROM_TOTALS
from tests.hostile.apptest import loaded_header

from .conftest import metrics, open_page, start_app
from .test_sessions_page import read_folder, table

CASES = Path(__file__).resolve().parents[1] / "importers" / "cases" / "valid"
INSTANCES = ["textkit__textkit-17", "dates__dates-4", "pkg__pkg-2"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("sessions-runs")
    shutil.copy(CASES / "openhands_output_metrics.jsonl", root / "output.jsonl")
    shutil.copy(CASES / "gemini_stream_stats.jsonl", root / "headless-run.jsonl")
    return root


@pytest.fixture
def sessions(folder):
    return read_folder(open_page(start_app(), "sessions"), folder)


def test_every_run_is_a_row_named_by_its_instance(sessions):
    assert not sessions.exception
    frame = table(sessions)
    assert list(frame["session"]) == ["9c41e7d2-5b0a-4f3e-8d21-6a7f0b3c2e19", *INSTANCES]
    assert list(frame["path"]) == ["headless-run.jsonl", "output.jsonl", "output.jsonl", "output.jsonl"]
    assert list(frame["recorded from"]) == [FROM_TOTALS, "each call's usage", "each call's usage", "each call's usage"]
    assert any("4 sessions in 2 files" in header.value for header in sessions.header)
    assert metrics(sessions)["Sessions"] == "4"


def test_a_run_opened_from_the_table_is_the_session_every_page_shows(sessions):
    position = list(table(sessions)["session"]).index("dates__dates-4")
    sessions.session_state["sessions_table"] = {"selection": {"rows": [position], "columns": [], "cells": []}}
    sessions.run()
    assert not sessions.exception
    assert any("output.jsonl** [dates__dates-4]" in message.value.replace("\\", "") for message in sessions.success)
    assert not [button for button in sessions.button if button.label == "Follow it live"]
    conversation = open_page(sessions, "conversation")
    assert loaded_header(conversation) == "Loaded: output.jsonl [dates__dates-4]"
    assert metrics(conversation)["Messages"] == "2" and metrics(conversation)["Format"] == "OpenHands"


def test_a_stream_run_opened_says_its_cost_is_its_totals(sessions):
    position = list(table(sessions)["path"]).index("headless-run.jsonl")
    sessions.session_state["sessions_table"] = {"selection": {"rows": [position], "columns": [], "cells": []}}
    sessions.run()
    replay_page = open_page(sessions, "replay")
    assert not replay_page.exception
    assert metrics(replay_page)["What it cost (log)"] == "$0.06"
    assert metrics(replay_page)["Recorded in the log"] == "46.9 K"
    captions = " ".join(caption.value for caption in replay_page.caption)
    assert "The log gives only the run's totals, not each call's usage: every per-call figure here" in captions
    assert "Priced at the run's model, gemini-2.5-pro" in captions
