"""Live page: a growing log followed from a typed path; each run reads only what was added (the offsets
the page shows), the forecast of the agent and of a what-if strategy, a path outside
COMPACTION_SESSION_FOLDERS refused by name, and the Sessions page's control opening the Live page."""

import re
from pathlib import Path

import pytest

from tests.corpus.conftest import write_small_corpus

from .conftest import metrics, open_page, start_app

CASE = Path(__file__).resolve().parents[1] / "live" / "cases" / "claude_code_growing.jsonl"
LINES = CASE.read_bytes().splitlines(keepends=True)


def follow(at, path):
    at.text_input(key="live_path").set_value(str(path))
    return at.button(key="live_follow").click().run()


def reads(at) -> list[tuple[int, int]]:
    [caption] = [c.value for c in at.caption if c.value.startswith("Reads of the file")]
    return [(int(a.replace(",", "")), int(b.replace(",", ""))) for a, b in re.findall(r"bytes ([\d,]+) to ([\d,]+)", caption)]


@pytest.fixture
def growing(tmp_path):
    path = tmp_path / "5f0e2c1a.jsonl"
    path.write_bytes(b"".join(LINES[:9]))
    return path


def test_a_growing_log_is_read_from_where_the_last_run_stopped(growing):
    at = follow(open_page(start_app(), "live"), growing)
    assert not at.exception
    assert metrics(at)["Model calls"] == "2"
    first_end = growing.stat().st_size
    assert reads(at) == [(0, first_end)]
    with open(growing, "ab") as handle:
        handle.write(b"".join(LINES[9:24]))
    at.run()
    assert metrics(at)["Model calls"] == "8"
    assert reads(at) == [(0, first_end), (first_end, growing.stat().st_size)]
    assert metrics(at)["Tokens to the agent's compaction"] == "34"
    assert any("Claude Code 2.1.128 compacts at 167,000 tokens: 34 tokens to go, before the next call" in m.value
               for m in at.markdown)
    assert any("summarises the whole conversation" in m.value for m in at.markdown)


def test_a_what_if_strategy_from_the_sidebar(growing):
    at = open_page(start_app(), "live")
    at.selectbox(key="live_what_if").set_value("codex").run()
    at = follow(at, growing)
    assert not at.exception
    assert any(m.value.startswith("**What if: Codex CLI.** Codex CLI compacts at 244,800 tokens") for m in at.markdown)


def test_a_path_outside_the_allowed_folders_is_refused_by_name(growing, tmp_path, monkeypatch):
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    monkeypatch.setenv("COMPACTION_SESSION_FOLDERS", str(allowed))
    at = follow(open_page(start_app(), "live"), growing)
    assert not at.exception
    assert any(str(growing) in error.value and "outside the folders this server follows sessions in" in error.value
               for error in at.error)
    assert not [m for m in at.metric if m.label == "Model calls"]


def test_not_a_session_log_says_so(tmp_path):
    path = tmp_path / "notes.jsonl"
    path.write_text('{"role": "user", "content": "hi"}\n')
    at = follow(open_page(start_app(), "live"), path)
    assert not at.exception
    assert any("line 1: not a line of a Claude Code, Codex CLI or Gemini CLI log" in error.value for error in at.error)


def test_the_sessions_page_opens_a_session_live(tmp_path):
    corpus = write_small_corpus(tmp_path / "corpus")
    at = open_page(start_app(), "sessions")
    at.number_input(key="sessions_workers").set_value(1)
    at.text_input(key="sessions_folder").set_value(str(corpus))
    at = at.button(key="sessions_read").click().run()
    [frame] = [frame for frame in at.dataframe if "session" in frame.value.columns]
    position = next(i for i, path in enumerate(frame.value["path"]) if path.endswith(".jsonl"))
    path = frame.value["path"][position]
    at.session_state["sessions_table"] = {"selection": {"rows": [position], "columns": [], "cells": []}}
    at = at.run().button(key="sessions_follow_live").click().run()
    assert not at.exception
    assert at.text_input(key="live_path").value == str(corpus / path)
    assert int(metrics(at)["Model calls"].replace(",", "")) > 0
