"""An OpenCode database uploaded to the dashboard (a .db file, SQLite): read as OpenCode's, its first session
loaded with a word on the others, and its preset replayed on the Compare page as the engine replays it."""

import sqlite3
from pathlib import Path

from compaction.importers import load_conversation
from compaction.replay.loop import replay
from compaction.strategies import REGISTRY, build

from .conftest import metrics, open_page, start_app

SQL = Path(__file__).resolve().parents[1] / "importers" / "cases" / "opencode_database.sql"


def test_an_opencode_database_loads_and_its_preset_runs_on_compare(tmp_path):
    path = tmp_path / "opencode.db"
    with sqlite3.connect(path) as connection:
        connection.executescript(SQL.read_text(encoding="utf-8"))
    connection.close()
    at = start_app()
    at.file_uploader(key="conversation_upload").set_value(("opencode.db", path.read_bytes(),
                                                            "application/octet-stream")).run()
    assert not at.exception and not at.error
    conversation = load_conversation(path)
    assert metrics(at)["Format"] == "OpenCode" and metrics(at)["Messages"] == f"{len(conversation.messages):,}"
    at = open_page(at, "compare")
    at.multiselect(key="compare").set_value(["opencode"]).run()
    assert not at.exception and not at.error
    table = at.table[0].value
    row = table[table["strategy"] == REGISTRY["opencode"].label].iloc[0]
    assert row["model calls"] == f"{replay(conversation, strategy=build('opencode', {})).totals['calls']:,}"
