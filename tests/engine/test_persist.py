"""L3 tool_result_budget: largest results of the last message go to disk, a preview stays."""

import copy

from compaction import OutputStore, Settings, tool_result_budget

from .builders import call, results, user

SMALL = Settings(max_bytes=1_000, persist_threshold=300, preview_chars=50)


def last_turn(*outputs):
    ids = [f"id{n}" for n in range(len(outputs))]
    return [user("go"), call(*ids, name="bash"), results(*zip(ids, outputs, strict=True))]


def test_largest_first_until_within_budget(tmp_path):
    messages = last_turn("b" * 600, "a" * 900, "c" * 100)  # 1,600 > 1,000
    out = tool_result_budget(messages, SMALL, OutputStore(tmp_path))
    assert [e.tool_use_id for e in out.events] == ["id1"]  # 1,600 - 900 + a ~200-char marker fits
    both = tool_result_budget(last_turn("b" * 600, "a" * 900, "c" * 400), SMALL, OutputStore(tmp_path))
    assert [e.tool_use_id for e in both.events] == ["id1", "id0"]  # 1,900 - 900 + marker still over
    block = out.messages[2]["content"][1]["content"]
    assert block.startswith("<persisted-output>\nFull output: ")
    assert block.endswith("Preview:\n" + "a" * 50 + "\n</persisted-output>")
    event = out.events[0]
    assert event.path.read_text() == "a" * 900
    assert (event.index, event.tool, event.chars, event.bytes) == (2, "bash", 900, 900)
    assert out.messages[2]["content"][0]["content"] == "b" * 600
    assert out.history.size == len(str(out.messages))


def test_results_under_the_threshold_are_never_persisted(tmp_path):
    messages = last_turn(*(["d" * 290] * 5))  # 1,450 > budget but each under PERSIST_THRESHOLD
    out = tool_result_budget(messages, SMALL, OutputStore(tmp_path))
    assert out.events == [] and out.messages == messages


def test_within_budget_nothing_happens(tmp_path):
    messages = last_turn("e" * 999)
    out = tool_result_budget(messages, SMALL, OutputStore(tmp_path))
    assert out.events == [] and not (tmp_path / "tool-results").exists()


def test_only_the_last_message_is_considered(tmp_path):
    messages = last_turn("f" * 5_000) + [{"role": "assistant", "content": "done"}]
    assert tool_result_budget(messages, SMALL, OutputStore(tmp_path)).events == []


def test_file_holds_the_output_byte_for_byte_and_input_is_untouched(tmp_path):
    output = "héllo ✓ \U0001f600 \ud800 tail\r\n" * 100
    messages = last_turn(output)
    before = copy.deepcopy(messages)
    store = OutputStore(tmp_path)
    out = tool_result_budget(messages, SMALL, store)
    assert messages == before
    stored = store.find("id0")
    assert store.matches(stored, output)
    assert store.read("id0") == output
    assert out.events[0].path == stored.path


def test_list_content_keeps_its_image_blocks(tmp_path):
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}}
    content = [{"type": "text", "text": "g" * 2_000}, image]
    messages = last_turn(content)
    out = tool_result_budget(messages, SMALL, OutputStore(tmp_path))
    new = out.messages[2]["content"][0]["content"]
    assert new[0]["text"].startswith("<persisted-output>") and new[1] == image
    assert out.events[0].path.read_text() == "g" * 2_000
    assert out.history.size == len(str(out.messages))


def test_rerun_on_a_prepared_history_reuses_the_written_file(tmp_path):
    from compaction import prepare

    history = prepare(last_turn("h" * 3_000))
    store = OutputStore(tmp_path)
    first = tool_result_budget(history, SMALL, store)
    second = tool_result_budget(history, SMALL, store)
    assert first.messages == second.messages
    assert len(store.list_outputs()) == 1
