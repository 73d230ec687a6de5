"""Compare offers the Codex CLI and Gemini CLI presets (they are in the strategy registry) and replays them on
a conversation of any format: here on hand-written Codex CLI and Gemini CLI cases, and on the Claude Code,
OpenAI and Anthropic samples, each preset's row the same as its replay from the command line's engine."""

from pathlib import Path

import pytest

from compaction.importers import load_conversation
from compaction.replay.loop import replay
from compaction.strategies import REGISTRY, build
from dashboard.render.compare_table import NO_COMPACTION, THE_LOG

from .conftest import SAMPLES, open_page, start_app
from .test_conversation_page import upload

CASES = Path(__file__).resolve().parents[1] / "importers" / "cases" / "valid"
PRESETS = ["codex", "gemini-cli"]


@pytest.mark.parametrize("path", [CASES / "codex_compaction.jsonl", CASES / "gemini_chat_tool_calls.json",
                                  CASES / "gemini_stream.jsonl", SAMPLES / "claude_code_session.jsonl",
                                  SAMPLES / "openai_chat.json", SAMPLES / "anthropic_request.json"],
                         ids=lambda path: path.name)
def test_the_codex_and_gemini_presets_run_on_every_format(path):
    at = upload(start_app(), path.name, path.read_bytes())
    assert not at.exception and not at.error
    at = open_page(at, "compare")
    choice = at.multiselect(key="compare")
    assert {REGISTRY[name].label for name in PRESETS} <= set(choice.options)  # offered by title
    choice.set_value(PRESETS).run()
    assert not at.exception and not at.error
    table = at.table[0].value
    labels = [REGISTRY[name].label for name in PRESETS]
    # the log's cost and no compaction come first, as references; then the strategies chosen
    assert table["strategy"].tolist()[-len(PRESETS):] == labels
    assert set(table["strategy"].tolist()[:-len(PRESETS)]) <= {NO_COMPACTION, THE_LOG}
    rows = table[table["strategy"].isin(labels)]
    tokens_column = next(c for c in table.columns if c.startswith("tokens sent, "))
    conversation = load_conversation(path)
    for name, (_, row) in zip(PRESETS, rows.iterrows(), strict=True):
        expected = replay(conversation, strategy=build(name, {})).totals
        assert row["model calls"] == f"{expected['calls']:,}"
        assert row[tokens_column] == f"{expected['tokens_sent_compared']:,}"
