"""Persisted-outputs page: lists what L3 wrote in this session, pages its content, checks it byte for byte."""

from pathlib import Path

from compaction.agents.claude_code.sample_log import ClaudeCodeLog
from compaction.importers import load_conversation
from compaction.model.messages import content_text, tool_results

from .conftest import SAMPLES, open_page
from .test_conversation_page import upload


def dump_output() -> str:
    last = load_conversation(SAMPLES / "seed_demo.json").messages[-1]
    return content_text(tool_results(last)[0]["content"])


def test_persisted_page_lists_what_l3_wrote(app, session_store):
    at = open_page(app, "persisted_outputs")
    assert not at.exception
    table = at.dataframe[0].value
    assert table["tool_use_id"].tolist() == ["tbig"]
    assert table["tool"].tolist() == ["bash"]
    assert table["bytes on disk"].tolist() == [len(dump_output().encode())]
    path = Path(table["path"][0])
    assert session_store in path.parents  # this workspace's folder under COMPACTION_STORE_ROOT
    assert path.read_text() == dump_output()
    assert any("Yes: the file's" in element.value for element in at.success)


def test_full_output_is_shown_in_pages_beside_the_preview(app):
    at = open_page(app, "persisted_outputs")
    full, preview = at.code[0].value, at.code[1].value
    output = dump_output()
    assert full == output[:20_000]
    assert preview.startswith("<persisted-output>\nFull output: ")
    assert output[:2_000] in preview
    at.number_input(key="persisted_page").set_value(2).run()
    assert at.code[0].value == output[20_000:40_000]


def test_nothing_persisted_says_why(app):
    app.number_input(key="PERSIST_THRESHOLD").set_value(700_000).run()
    at = open_page(app, "persisted_outputs")
    assert not at.exception
    assert at.info[0].value.startswith("L3 has saved nothing in your workspace, in one pass nor along the replay of 61 calls.")


def early_big_reads() -> bytes:
    """A Claude Code log whose big tool results come early: 3 reads of 80,000 characters (over L3's
    200,000 budget) answered, then two small turns, so the newest message holds no tool result."""
    log = ClaudeCodeLog(seed=29)
    reads = [{"type": "tool_use", "id": f"toolu_read{n}", "name": "Read", "input": {"file_path": f"/src/part{n}.py"}}
             for n in range(3)]
    log.messages([
        {"role": "user", "content": "Read the three parts and tell me what they do."},
        {"role": "assistant", "content": reads},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_read{n}",
                                      "content": f"# part {n}\n" + f"value_{n} = {n}\n" * 7_000} for n in range(3)]},
        {"role": "assistant", "content": "They set three values."},
        {"role": "user", "content": "Thanks. Anything else?"},
        {"role": "assistant", "content": "No."},
    ])
    return log.jsonl().encode()


def test_a_log_whose_big_results_came_early_shows_what_l3_saved_along_the_replay(app):
    at = open_page(upload(app, "early_reads.jsonl", early_big_reads()), "persisted_outputs")
    assert not at.exception
    assert at.info[0].value.startswith("One pass of L3 sees only the newest message, and saved nothing here. "
                                       "Along the replay of 3 calls, each message was the newest once: L3 "
                                       "persisted ")
    assert "before call 2; the replay's files are in" in at.info[0].value
    table = at.dataframe[0].value
    assert set(table["tool_use_id"]) <= {"toolu_read0", "toolu_read1", "toolu_read2"} and len(table) >= 1
    assert table["in loaded conversation"].all()
    assert any("Yes: the file's" in element.value for element in at.success)  # the file is the original, byte for byte
    assert at.code[1].value.startswith("<persisted-output>")  # what stayed in the context at that call
