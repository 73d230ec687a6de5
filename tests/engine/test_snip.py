"""L1 snip_compact, with the worked examples of the tutorial (000 seed, sections 6.1-6.7)."""

import copy

from compaction import Settings, check_pairs, snip_compact
from compaction.layers.snip import cut_points

from .builders import assistant, call, results, turns, user

EIGHT = Settings(max_messages=8)


def test_plain_history_keeps_three_head_and_five_tail():  # section 6.1
    messages = [user(f"msg{i}") if i % 2 == 0 else assistant(f"msg{i}") for i in range(12)]
    out = snip_compact(messages, EIGHT)
    assert cut_points(messages, 3, 5) == (3, 7)
    assert out.messages[:3] == messages[:3]
    assert out.messages[3] == {"role": "user", "content": "[snipped 4 messages]"}
    assert out.messages[4:] == messages[7:]
    [event] = out.events
    assert (event.start, event.end, event.count, event.indices) == (3, 6, 4, (3, 4, 5, 6))
    assert event.size == sum(len(str(m)) for m in messages[3:7])


def worked_example():  # section 6.7: tool pairs at both cuts
    return [
        user("0"), assistant("1"), call("a"), results(("a", "3")), user("4"), assistant("5"),
        call("b"), results(("b", "7")), user("8"), assistant("9"), user("10"), assistant("11"),
    ]


def test_worked_example_moves_both_cuts():
    messages = worked_example()
    assert cut_points(messages, 3, 5) == (4, 6)
    out = snip_compact(messages, EIGHT)
    assert out.messages == messages[:4] + [{"role": "user", "content": "[snipped 2 messages]"}] + messages[6:]
    assert out.events[0].indices == (4, 5)
    assert check_pairs(out.messages) == []


def test_short_history_is_returned_unchanged():
    messages = turns(3)
    out = snip_compact(messages, EIGHT)
    assert out.messages == messages and out.events == []


def test_head_and_tail_meeting_changes_nothing():
    # max 4: head 3 + tail 1; every cut lands inside a pair, so the cuts cross
    messages = [user(), call("a"), results(("a", "x")), call("b"), results(("b", "y"))]
    out = snip_compact(messages, Settings(max_messages=4))
    assert cut_points(messages, 3, 1) == (3, 3)
    assert out.messages == messages and out.events == []


def test_parallel_calls_answered_by_one_message_stay_together():
    messages = [user(), assistant(), call("a", "b", "c"), results(("a", "1"), ("b", "2"), ("c", "3"))]
    for n in range(6):
        messages += [call(f"p{n}", f"q{n}"), results((f"p{n}", "r"), (f"q{n}", "s"))]
    for max_messages in range(4, len(messages)):
        out = snip_compact(messages, Settings(max_messages=max_messages))
        assert check_pairs(out.messages) == [], max_messages


def test_mixed_text_and_tool_result_message_counts_as_a_result():
    messages = [user(), call("a")] + [results(("a", "out"), text="and also this")]
    messages += [assistant("thinking"), user("more"), call("b"), results(("b", "o"), text="note")]
    messages += [assistant(str(n)) if n % 2 else user(str(n)) for n in range(4)]
    for max_messages in range(4, len(messages)):
        out = snip_compact(messages, Settings(max_messages=max_messages))
        assert check_pairs(out.messages) == []


def test_string_content_everywhere_is_snipped_plainly():
    messages = [user(f"u{i}") if i % 2 == 0 else {"role": "assistant", "content": f"a{i}"} for i in range(60)]
    out = snip_compact(messages, Settings())
    assert len(out.messages) == 51
    assert out.messages[3]["content"] == "[snipped 10 messages]"


def test_input_is_not_mutated_and_sizes_stay_exact():
    messages = turns(40)
    before = copy.deepcopy(messages)
    out = snip_compact(messages, Settings(max_messages=10))
    assert messages == before
    assert out.history.size == len(str(out.messages))
