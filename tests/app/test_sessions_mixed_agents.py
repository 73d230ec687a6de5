"""Sessions page on a folder mixing Claude Code (a subagent in 2.1's subagents/ folder, one in 2.0's sibling
layout, one whose session is missing), Codex CLI and Gemini CLI sessions, all written by hand
(tests/corpus/mixed_agents): every row with its format, calls and recorded cost, each subagent under its
session, counted, priced and openable."""

import pytest

from tests.corpus.test_subagents import (
    BLOG,
    CODEX_COST,
    GEMINI_AGENT_COST,
    GEMINI_COST,
    GONE,
    MIXED,
    SHOP,
    SHOP_AGENT_COST,
    SHOP_COST,
    TODO,
)
from tests.hostile.apptest import loaded_header

from .conftest import metrics, open_page, start_app

CODEX = "019d2308-0000-7000-8000-00000000aa01"


def table(at):
    [frame] = [frame for frame in at.dataframe if "session" in frame.value.columns]
    return frame.value


@pytest.fixture
def sessions():
    at = open_page(start_app(), "sessions")
    at.number_input(key="sessions_workers").set_value(1)
    at.text_input(key="sessions_folder").set_value(str(MIXED))
    return at.button(key="sessions_read").click().run()


def test_every_row_has_its_format_calls_and_recorded_cost_and_subagents_sit_under_their_session(sessions):
    assert not sessions.exception
    frame = table(sessions)
    columns = list(frame.columns)
    # what the session cost stands beside what the settings would cost
    assert columns.index("cost with these settings (US$)") == columns.index("recorded cost (US$)") + 1
    assert list(zip(frame["session"], frame["subagent of"], frame["format"], frame["model calls"], strict=True)) == [
        (BLOG, "", "Claude Code", 2), ("↳ agent-5c7d9e1f", BLOG, "Claude Code", 2),
        ("↳ agent-a0f1e2d3c4b5a6978", f"{GONE} (not in this folder)", "Claude Code", 1),
        (SHOP, "", "Claude Code", 2), ("↳ agent-a3f9c1d2e4b5a6978", SHOP, "Claude Code", 3),
        (CODEX, "", "Codex CLI", 2), (TODO, "", "Gemini CLI", 4), ("↳ k3x9qa", TODO, "Gemini CLI", 1)]
    cost = dict(zip(frame["session"], frame["recorded cost (US$)"], strict=True))
    assert cost[SHOP] == pytest.approx(SHOP_COST) and cost["↳ agent-a3f9c1d2e4b5a6978"] == pytest.approx(SHOP_AGENT_COST)
    assert cost[CODEX] == pytest.approx(CODEX_COST) and cost[TODO] == pytest.approx(GEMINI_COST)
    shop = frame[frame["session"] == SHOP].iloc[0]
    assert shop["subagents"] == 1
    assert shop["recorded, with its subagents (US$)"] == pytest.approx(SHOP_COST + SHOP_AGENT_COST)
    assert frame[frame["session"] == TODO].iloc[0]["recorded, with its subagents (US$)"] == pytest.approx(
        GEMINI_COST + GEMINI_AGENT_COST)
    total = sum(frame["recorded cost (US$)"])
    assert metrics(sessions) | {"Median saving": None} == {
        "Sessions": "4", "Subagents": "4", "Could not be read": "0", "Model calls": "17",
        "Recorded cost": f"${total:,.2f}", "Median saving": None}


def test_a_session_id_finds_its_subagents_and_they_can_be_hidden(sessions):
    sessions.text_input(key="sessions_search").set_value(SHOP).run()
    assert list(table(sessions)["session"]) == [SHOP, "↳ agent-a3f9c1d2e4b5a6978"]
    sessions.text_input(key="sessions_search").set_value("").run()
    sessions.checkbox(key="sessions_only_sessions").check().run()
    assert list(table(sessions)["session"]) == [BLOG, SHOP, CODEX, TODO]
    sessions.checkbox(key="sessions_only_sessions").uncheck().run()
    assert sessions.multiselect(key="sessions_formats").options == ["Claude Code", "Codex CLI", "Gemini CLI"]
    sessions.multiselect(key="sessions_formats").set_value(["Gemini CLI"]).run()
    assert list(table(sessions)["session"]) == [TODO, "↳ k3x9qa"]


def test_a_subagent_opens_in_the_other_pages_naming_its_session(sessions):
    position = list(table(sessions)["session"]).index("↳ agent-a3f9c1d2e4b5a6978")
    sessions.session_state["sessions_table"] = {"selection": {"rows": [position], "columns": [], "cells": []}}
    sessions.run()
    assert not sessions.exception
    path = f"claude/projects/-home-dev-shop/{SHOP}/subagents/agent-a3f9c1d2e4b5a6978.jsonl"
    assert any(path in message.value and f"a subagent of session {SHOP}" in message.value
               for message in sessions.success)
    conversation = open_page(sessions, "conversation")
    assert loaded_header(conversation) == f"Loaded: {path}"
    assert metrics(conversation)["Format"] == "Claude Code" and metrics(conversation)["Messages"] == "6"
