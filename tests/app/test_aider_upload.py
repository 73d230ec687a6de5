"""An Aider chat history uploaded to the dashboard: read as Aider's (a `.md` file), its /clear named as the
agent's own compaction, and its preset replayed on the Compare page as the engine replays it."""

from pathlib import Path

from compaction.importers import load_conversation
from compaction.replay.loop import replay
from compaction.strategies import REGISTRY, build

from .conftest import metrics, open_page, start_app

CASE = Path(__file__).resolve().parents[1] / "importers" / "cases" / "valid" / "aider_clear_and_commands.md"


def test_an_aider_history_loads_and_its_preset_runs_on_compare():
    at = start_app()
    history = (".aider.chat.history.md", CASE.read_bytes(), "text/markdown")  # the file's own name
    at.file_uploader(key="conversation_upload").set_value(history).run()
    assert not at.exception and not at.error
    conversation = load_conversation(CASE)
    assert metrics(at)["Format"] == "Aider" and metrics(at)["Messages"] == f"{len(conversation.messages):,}"
    assert any("Aider already compacted this session once" in note.value and "(clear" in note.value
               for note in at.info)
    at = open_page(at, "compare")
    at.multiselect(key="compare").set_value(["aider"]).run()
    assert not at.exception and not at.error
    table = at.table[0].value
    row = table[table["strategy"] == REGISTRY["aider"].label].iloc[0]
    expected = replay(conversation, strategy=build("aider", {})).totals
    assert row["model calls"] == f"{expected['calls']:,}"
