"""What-changed page: snipped ranges, placeholders, the L4 summary and the compacted download."""

from compaction import Settings, prepare, run_pipeline
from compaction.importers import load_conversation

from .conftest import SAMPLES, open_page

SEED_DEMO = prepare(load_conversation(SAMPLES / "seed_demo.json"))


def test_snipped_ranges_and_placeholders_match_the_engine(app):
    at = open_page(app, "what_changed")
    assert not at.exception
    expected = run_pipeline(SEED_DEMO, Settings())
    snipped = at.dataframe[0].value
    assert snipped[["from", "to", "messages"]].values.tolist() == [
        [r.start, r.end, r.count] for r in expected.snipped]
    assert snipped["first line"][0].startswith("read_file")
    range_messages = at.dataframe[1].value  # inside the range's expander
    assert range_messages["index"].tolist() == list(expected.snipped[0].indices)
    assert at.code[0].value  # the first snipped message in full
    placeholders = at.dataframe[2].value
    assert placeholders["message"].tolist() == [p.index for p in expected.placeholders]
    assert set(placeholders["layer"]) == {"L2"}
    assert set(placeholders["placeholder"]) == {"[Earlier tool result compacted. Re-run if needed.]"}
    assert any(info.value.startswith("No summary:") for info in at.info)


def test_low_context_limit_shows_the_offline_summary(app):
    at = open_page(app, "what_changed")
    at.number_input(key="CONTEXT_LIMIT").set_value(5_000).run()
    assert not at.exception
    text = at.markdown
    assert any("**Summariser:** offline" in element.value for element in text)
    summary = at.code[-1].value
    assert summary.startswith("Summary of 52 messages (offline summariser, no LLM).")
    assert "1. Current goal" in summary


def test_download_holds_the_compacted_conversation(app):
    at = open_page(app, "what_changed")
    button = at.get("download_button")[0]
    assert "compacted" in button.proto.label
    assert any("52 messages" in caption.value for caption in at.caption)
