"""L2 micro_compact: placeholders for old tool results, the newest KEEP_RECENT kept whole."""

import copy

from compaction import PLACEHOLDER, Settings, micro_compact

from .builders import call, results, turns, user


def test_keeps_the_newest_and_replaces_older_long_results():
    messages = turns(5, output_chars=500)
    out = micro_compact(messages, Settings(keep_recent=2))
    contents = [m["content"][0]["content"] for m in out.messages[2::2]]
    assert contents[:3] == [PLACEHOLDER] * 3
    assert contents[3:] == ["x" * 500] * 2
    assert [(p.index, p.tool_use_id, p.tool, p.original_chars) for p in out.events] == [
        (2, "t0", "read_file", 500), (4, "t1", "read_file", 500), (6, "t2", "read_file", 500)]
    assert out.history.size == len(str(out.messages))


def test_short_results_are_left_alone():
    messages = turns(5, output_chars=120)  # the tutorial replaces only results longer than 120
    out = micro_compact(messages, Settings(keep_recent=1))
    assert out.messages == messages and out.events == []


def test_list_content_is_measured_in_characters_not_blocks():
    long_blocks = [{"type": "text", "text": "y" * 100}, {"type": "text", "text": "z" * 100}]
    messages = [user(), call("a"), results(("a", long_blocks)), call("b"), results(("b", "short"))]
    out = micro_compact(messages, Settings(keep_recent=1))
    assert out.messages[2]["content"][0]["content"] == PLACEHOLDER
    assert out.events[0].original_chars == 200
    assert out.history.size == len(str(out.messages))


def test_parallel_results_count_one_by_one():
    messages = [user(), call("a", "b", "c"), results(("a", "1" * 200), ("b", "2" * 200), ("c", "3" * 200))]
    out = micro_compact(messages, Settings(keep_recent=1))
    assert [b["content"] for b in out.messages[2]["content"]] == [PLACEHOLDER, PLACEHOLDER, "3" * 200]


def test_keep_recent_zero_replaces_all_and_input_is_untouched():
    messages = turns(3, output_chars=300)
    before = copy.deepcopy(messages)
    out = micro_compact(messages, Settings(keep_recent=0))
    assert len(out.events) == 3
    assert messages == before


def test_stopping_at_earlier_placeholders_gives_what_a_full_scan_gives():
    """In the loop L2 stops at the placeholders it wrote at the previous call; on the same messages
    taken as a fresh input (no message made by a layer, so nothing to stop at) it scans everything."""
    from compaction.generate import generate
    from compaction.model.history import prepare
    from compaction.model.settings import Settings
    from compaction.replay.loop import replay

    settings = Settings(keep_recent=2, context_limit=10_000_000, max_messages=10_000_000)
    conversation = prepare(generate("realistic", turns=60, parallel_share=0.5, seed=4))
    result = replay(conversation, settings)
    originals, checked = conversation.messages, 0
    for before, record in zip(result.calls, result.calls[1:], strict=False):
        sent = result.history(before.call)  # what the previous call sent, then the messages since
        new = range(before.index, record.index)
        carried = sent.derive(sent.messages + [originals[i] for i in new],
                              sent.sizes + [conversation.sizes[i] for i in new], sent.origins + list(new))
        resumed = micro_compact(carried, settings)
        scanned = micro_compact(prepare(list(carried.messages)), settings)
        assert resumed.history.messages == scanned.history.messages, record.call
        checked += bool(resumed.events)
    assert checked > 20  # L2 replaced something at most calls
