"""Each new agent's hand-written log, uploaded as a new user would, visits every page: no exception, no
error, no "(s)" plural in what a page writes, and the Compactions page names the agent's preset by its own
title (Pi, OpenCode, Roo Code), never by its id."""

import re
from pathlib import Path

import pytest

from compaction.agents import agent_of
from compaction.importers import load_conversation
from compaction.strategies import REGISTRY

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
