"""A Cline task's ui_messages.json uploaded to the dashboard: read as Cline's, its calls counted as the
engine counts them, and its preset replayed on the Compare page as the engine replays it."""

from pathlib import Path

from compaction.importers import load_conversation
from compaction.replay.loop import replay
from compaction.strategies import REGISTRY, build

from .conftest import metrics, open_page, start_app

PANEL = Path(__file__).resolve().parents[1] / "importers" / "cases" / "valid" / "cline_panel_truncation.json"


def test_a_cline_panel_loads_and_its_preset_runs_on_compare():
    at = start_app()
    at.file_uploader(key="conversation_upload").set_value(("ui_messages.json", PANEL.read_bytes(),
                                                            "application/json")).run()
    assert not at.exception and not at.error
    conversation = load_conversation(PANEL)
    assert metrics(at)["Format"] == "Cline" and metrics(at)["Messages"] == f"{len(conversation.messages):,}"
    at = open_page(at, "compare")
    at.multiselect(key="compare").set_value(["cline"]).run()
    assert not at.exception and not at.error
    table = at.table[0].value
    row = table[table["strategy"] == REGISTRY["cline"].label].iloc[0]
    assert row["model calls"] == f"{replay(conversation, strategy=build('cline', {})).totals['calls']:,}"
