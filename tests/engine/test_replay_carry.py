"""The replay honours Step.carry: an edit made to one request only (the API's context editing) is
sent, and the whole history is what the next call starts from."""

import math

from compaction import Settings, check_pairs
from compaction.model.markers import API_CLEARED, REACTIVE_PREFIX
from compaction.replay.loop import replay
from compaction.strategies import Step, build

from .builders import turns

CLEARED = len(repr("x" * 4000)) - len(repr(API_CLEARED))


def hide_the_newest_result(history, settings, store=None, summarizer=None):
    """Hides the newest tool output of each request only: what it hid last time must come back whole."""
    last = history.messages[-1] if history.messages else None
    if not last or not isinstance(last["content"], list) or last["content"][0].get("type") != "tool_result":
        return Step(history)
    hidden = {**last, "content": [{**last["content"][0], "content": "[hidden]"}, *last["content"][1:]]}
    sent = history.derive(history.messages[:-1] + [hidden], history.sizes[:-1] + [len(str(hidden))],
                          list(history.origins))
    return Step(sent, ("clear_tool_uses",), carry=history)


def outputs(messages):
    return [b["content"] for m in messages if isinstance(m["content"], list)
            for b in m["content"] if b.get("type") == "tool_result"]


def test_a_request_only_edit_is_not_carried_to_the_next_call():
    result = replay(turns(4, output_chars=300), Settings(), strategy=hide_the_newest_result)
    # call k answers k results: the newest is hidden in that request, every older one is whole again
    for record in result.calls[1:]:
        assert outputs(result.history(record.call).messages) == ["x" * 300] * (record.call - 1) + ["[hidden]"]
    assert result.totals["tool_output_kept"] == 0.0  # no output ever reached the model whole


def test_clear_tool_uses_reports_what_each_request_cleared():
    result = replay(turns(6, output_chars=4000), Settings(),
                    strategy=build("anthropic-clear-tool-uses", {"trigger": 1000, "keep": 2}))
    edits = [record.as_dict()["applied_edits"] for record in result.calls]
    # six calls; call k sends k results (over 1,000 tokens from call 1 on): all but the newest 2 are cleared
    assert edits == [[]] * 3 + [[{"type": "clear_tool_uses_20250919", "cleared_tool_uses": k - 2,
                                  "cleared_input_tokens": math.ceil((k - 2) * CLEARED / 4)}] for k in range(3, 6)]
    for record in result.calls:
        sent = result.history(record.call).messages
        assert len(sent) == record.index  # nothing dropped: every message of the log so far
        assert outputs(sent) == [API_CLEARED] * max(record.call - 2, 0) + ["x" * 4000] * min(record.call, 2)
    assert [record.acted for record in result.calls] == [()] * 3 + [("clear_tool_uses",)] * 3


def test_the_loops_own_reactive_compaction_stays_permanent():
    # a window so small that even the cleared request is over it: the replay summarises what it sends
    result = replay(turns(8, output_chars=4000), Settings(reactive_keep_last=2), model_window_tokens=600,
                    strategy=build("anthropic-clear-tool-uses", {"trigger": 100, "keep": 1}))
    reactive = [record.call for record in result.calls if "reactive" in record.acted]
    assert reactive
    after = result.history(reactive[0] + 1).messages
    assert after[0]["content"].startswith(REACTIVE_PREFIX)  # the next call starts from the compacted history
    for record in result.calls:
        assert check_pairs(result.history(record.call).messages) == []
