"""The "Use these settings" panel on Tune, Compare and Replay, in AppTest: one tab per form of the strategy
on show, each a code block to copy and a download, following the sidebar's settings and the Compare
page's parameters."""

import json
import tomllib

from .conftest import open_page


def blocks(at) -> list[str]:
    return [element.value for element in at.code]


def downloads(at) -> list[str]:
    return [element.proto.label for element in at.get("download_button") if "Download" in element.proto.label]


def test_tune_exports_the_pipeline_at_the_sidebars_settings(app):
    at = open_page(app, "tune")
    assert not at.exception
    assert [tab.label for tab in at.tabs][-2:] == ["Standalone Python module", "Compaction Lab's compacting client"]
    module, client = blocks(at)[-2:]
    assert "CONTEXT_LIMIT = 50_000" in module and "KEEP_RECENT = 3" in module
    compile(module, "compaction_settings.py", "exec")
    assert "strategy='pipeline'" in client
    assert {"Download compaction_settings.py", "Download compacting_client.py"} <= set(downloads(at))
    at.number_input(key="CONTEXT_LIMIT").set_value(20_000).run()
    at.number_input(key="KEEP_RECENT").set_value(1).run()
    module = blocks(at)[-2]
    assert "CONTEXT_LIMIT = 20_000" in module and "KEEP_RECENT = 1" in module


def test_compare_exports_the_chosen_strategy_with_its_parameters(app):
    at = open_page(app, "compare")
    at.multiselect(key="compare").set_value(["pipeline", "codex", "anthropic-clear-tool-uses"]).run()
    at.number_input(key="codex.auto_compact_token_limit").set_value(150_000).run()
    at.selectbox(key="compare_export_strategy").set_value("codex").run()
    assert not at.exception
    [config] = [text for text in blocks(at) if text.startswith("# Codex CLI")]
    assert tomllib.loads(config)["model_auto_compact_token_limit"] == 150_000
    at.selectbox(key="compare_export_strategy").set_value("anthropic-clear-tool-uses").run()
    [fragment] = [text for text in blocks(at) if text.startswith("{")]
    assert json.loads(fragment)["context_management"]["edits"][0]["type"] == "clear_tool_uses_20250919"
    assert "Download context_management.json" in downloads(at)
    assert any("beta header" in caption.value for caption in at.caption)


def test_replay_has_the_panel_too(app):
    at = open_page(app, "replay")
    assert not at.exception
    assert any(element.label == "Use these settings" for element in at.expander)
    assert "Download compaction_settings.py" in downloads(at)
