"""The pages' tables and texts, from engine results."""

from compaction import Settings, prepare, run_pipeline
from compaction.generate import generate
from compaction.storage.outputs import OutputStore
from dashboard.render.narrative import fate_counts, l4_headline, layer_captions, loading_notes
from dashboard.render.tables import (
    message_frame,
    persisted_frame,
    placeholder_frame,
    snipped_frame,
    tool_call_counts,
)
from dashboard.render.text import first_line, message_full_text, message_summary_line
from dashboard.render.units import compact_number, convert, describe

SEED_DEMO = prepare(generate("seed-demo"))


def test_units():
    assert convert(697_419, "chars") == 697_419
    assert convert(697_419, "tokens") == 174_355
    assert compact_number(950) == "950"
    assert compact_number(12_345) == "12.3 K"
    assert compact_number(1_234_567) == "1.23 M"
    assert describe(697_419, "tokens") == "174.4 K ~tokens"


def test_message_text_names_tool_calls_and_results():
    call, result = SEED_DEMO.messages[1], SEED_DEMO.messages[2]
    assert message_summary_line(call) == 'read_file {"path": "src/module0.py"}'
    assert message_summary_line(result, SEED_DEMO.tool_name).startswith("read_file → ")
    full = message_full_text(result, SEED_DEMO.tool_name)
    assert full.startswith("[tool result for read_file  id t0]\n")
    assert first_line("\n\n  " + "x" * 200, 10) == "x" * 9 + "…"


def test_message_frame_one_row_per_message_with_tools():
    frame = message_frame(SEED_DEMO, "chars")
    assert len(frame) == 123
    assert frame["size"].sum() == sum(SEED_DEMO.sizes)
    assert frame.loc[1, "tool"] == "read_file" and frame.loc[2, "tool"] == "read_file"
    assert frame.loc[0, "tool"] == ""
    assert message_frame(SEED_DEMO, "chars", [5, 7])["index"].tolist() == [5, 7]


def test_tool_call_counts():
    assert tool_call_counts(SEED_DEMO.messages).values.tolist() == [["read_file", 60], ["bash", 1]]


def test_event_tables_follow_the_engine(tmp_path):
    store = OutputStore(tmp_path)
    result = run_pipeline(SEED_DEMO, Settings(), store)
    snipped = snipped_frame(result, "chars")
    assert snipped[["from", "to", "messages"]].values.tolist() == [[3, 74, 72]]
    assert snipped["marker left"][0] == "[snipped 72 messages]"
    placeholders = placeholder_frame(result, "tokens")
    assert len(placeholders) == len(result.placeholders) == 22
    assert placeholders["original size"][0] == -(-result.placeholders[0].original_chars // 4)
    outputs = store.list_outputs()
    persisted = persisted_frame(outputs, {"tbig"}, "chars")
    assert persisted[["tool", "tool_use_id", "in loaded conversation"]].values.tolist() == [["bash", "tbig", True]]


def test_captions_explain_each_layer():
    quiet = run_pipeline(SEED_DEMO, Settings(persist_threshold=700_000, max_messages=500, keep_recent=100,
                                              context_limit=800_000))
    captions = layer_captions(quiet, "chars")
    assert captions["L3"].startswith("Nothing saved to disk")
    assert captions["L1"].startswith("Nothing snipped: 123 messages")
    assert captions["L2"].startswith("No placeholders")
    assert captions["L4"].startswith("No summary needed")
    assert l4_headline(quiet)[0] == "not needed"
    busy = run_pipeline(SEED_DEMO, Settings(context_limit=5_000))
    captions = layer_captions(busy, "chars")
    assert captions["L3"].startswith("Saved 1 large tool output to disk (the largest, bash")
    assert captions["L1"].startswith("Dropped 72 messages")
    assert captions["L2"].startswith("Replaced 22 old tool results")
    assert "offline summariser" in captions["L4"]
    assert l4_headline(busy)[0] == "fired (offline)"
    assert fate_counts(busy) == {"summarised": 51, "snipped": 72}


def test_loading_notes_tell_what_a_claude_code_session_carried():
    notes = loading_notes({"compact_boundaries": [{"index": 23, "trigger": "auto", "pre_tokens": 154312}],
                           "sidechain_lines_skipped": 4, "unknown_lines_skipped": 1}, "Claude Code")
    assert notes == [
        "Claude Code already compacted this session once: at message 23 of the loaded conversation "
        "(automatically, 154,312 tokens before). "
        "The summary it wrote is a message like any other here.",
        "Left out: 4 lines of a subagent (sidechain); 1 line of a kind the importer does not know.",
    ]
    assert loading_notes({}) == []
    odd = loading_notes({"compact_boundaries": [{"index": 5, "trigger": "manual", "pre_tokens": "lots"}]})
    assert odd[0].startswith("The agent already compacted this session once: at message 5 of the loaded "
                             "conversation (asked by the person). ")  # a count that is not a number is left out
    # a trigger the log does not name is not written as "unknown" (a Codex CLI compaction)
    codex = loading_notes({"compact_boundaries": [{"index": 111, "trigger": "unknown", "pre_tokens": 213_218}]},
                          "Codex CLI")
    assert codex[0].startswith("Codex CLI already compacted this session once: at message 111 of the loaded "
                               "conversation (213,218 tokens before). ")


def test_literal_shows_markdown_and_links_as_typed():
    from dashboard.render.text import literal

    hostile = "![x](http://example.invalid/a.png) **bold** :red[x] $x$ <b>.json"
    escaped = literal(hostile)
    assert "![" not in escaped and "](" not in escaped and "**" not in escaped and ":red[" not in escaped
    assert escaped.replace("\\", "") == hostile
