"""Each new agent's hand-written log, uploaded as a new user would, visits every page: no exception, no
error, no "(s)" plural in what a page writes, and the Compactions page names the agent's preset by its own
title (Pi, OpenCode, Roo Code), never by its id."""

import json
import re
from pathlib import Path

import pytest

from compaction.agents import agent_of
from compaction.importers import load_conversation
from compaction.strategies import REGISTRY
from tests.importers.crush.build_db import build

from .conftest import metrics, open_page, start_app
from .test_conversation_page import upload

CASES = Path(__file__).resolve().parents[1] / "importers" / "cases" / "valid"
AGENT_CASES = ["opencode_export_compaction.json", "cline_panel_truncation.json", "roo_code_panel_condense.json",
               "copilot_cli_events.jsonl", "pi_session.jsonl", "goose_legacy_session.jsonl",
               "cursor_agent_transcript.jsonl"]
PAGES = ["conversation", "replay", "compare", "tune", "compactions", "live", "sessions"]
WORDS = ("markdown", "caption", "info", "warning", "success")


def words(at) -> list[str]:
    return [str(element.value) for kind in WORDS for element in at.get(kind)]


@pytest.mark.parametrize("name", AGENT_CASES)
def test_every_page_takes_the_agents_log_in_its_own_words(name):
    path = CASES / name
    conversation = load_conversation(path)
    at = upload(start_app(), name, path.read_bytes())
    assert not at.exception and not at.error
    assert metrics(at)["Format"] == agent_of(conversation.format).title
    for page in PAGES:
        at = open_page(at, page)
        assert not at.exception, (page, [e.value for e in at.exception])
        assert not at.error, (page, [e.value for e in at.error])
        if page == "compactions":
            texts = words(at)
            assert not [t for t in texts if re.search(r"\w\(s\)", t)], page
            preset = agent_of(conversation.format).own_preset
            # the preset is set beside the log's compactions where the log records each call's usage
            if conversation.metadata.get("compact_boundaries") and preset and conversation.has_usage:
                assert any(f"The {REGISTRY[preset].label} preset" in t for t in texts)
                if REGISTRY[preset].label != preset:
                    assert not any(f"The {preset} preset" in t for t in texts)


def test_a_folder_of_every_agents_logs_and_a_crush_database_lists_each_session(tmp_path, monkeypatch):
    """Sessions, on a folder holding each new agent's log (a Cline or Roo Code task folder keeps its
    ui_messages.json) and a Crush database of several sessions: one row per session, each under its agent."""
    folder = tmp_path / "logs"
    for number, name in enumerate(AGENT_CASES):
        (folder / f"task{number}").mkdir(parents=True)
        (folder / f"task{number}" / ("ui_messages.json" if "panel" in name else name)).write_bytes(
            (CASES / name).read_bytes())
    (folder / ".crush").mkdir()
    build(folder / ".crush" / "crush.db")
    monkeypatch.setenv("COMPACTION_SESSION_FOLDERS", str(tmp_path))
    at = open_page(start_app(), "sessions")
    at.number_input(key="sessions_workers").set_value(1)
    at.text_input(key="sessions_folder").set_value(str(folder))
    at = at.button(key="sessions_read").click().run()
    assert not at.exception and not at.error
    [frame] = [frame.value for frame in at.dataframe if "session" in frame.value.columns]
    expected = [agent_of(load_conversation(CASES / name).format).title for name in AGENT_CASES]
    # the database's sessions that hold messages: the main one and its agent's (subagent) session
    assert sorted(frame["format"]) == sorted(expected + ["Crush", "Crush"])
    assert frame[frame["format"] == "Crush"]["model calls"].tolist() == [4, 1]
    assert not frame["error"].fillna("").astype(bool).any()


@pytest.mark.parametrize("name", [n for n in AGENT_CASES if agent_of(load_conversation(CASES / n).format).knobs])
def test_tune_exports_in_the_agents_own_terms(name):
    """Tune starts from the agent's own knobs, and the line exporting the picked cell names each knob as the
    agent's settings name it (Pi's compaction.reserveTokens, Goose's GOOSE_AUTO_COMPACT_THRESHOLD)."""
    agent = agent_of(load_conversation(CASES / name).format)
    at = open_page(upload(start_app(), name, (CASES / name).read_bytes()), "tune")
    assert not at.exception and not at.error
    assert at.radio(key=f"tune_what_{agent.own_preset}").value == agent.own_preset
    [line] = [m.value for m in at.markdown if m.value.startswith(f"**Take it to {agent.title}:**")]
    assert f"In {agent.title}'s own terms: " in line and all(knob.words in line for knob in agent.knobs)


def test_a_pi_cell_typed_is_exported_as_pis_settings_json():
    at = open_page(upload(start_app(), "pi_session.jsonl", (CASES / "pi_session.jsonl").read_bytes()), "tune")
    box = next(box for box in at.text_input if box.label.startswith("reserve_tokens values"))
    box.set_value("30000, 50000").run()
    assert not at.exception and not at.error
    [settings] = [json.loads(block.value) for block in at.code if block.value.lstrip().startswith("{")]
    assert settings["compaction"]["reserveTokens"] == 30_000
    [line] = [m.value for m in at.markdown if m.value.startswith("**Take it to Pi:**")]
    assert "(settings.json compaction.reserveTokens) 30,000" in line
