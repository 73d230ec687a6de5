"""The Anthropic API's context management, each worked out by hand from its documentation:
clear_tool_uses_20250919, clear_thinking_20251015 and compact_20260112."""

import copy
import math

import pytest

from compaction import Settings, check_pairs, prepare
from compaction.errors import SettingsError
from compaction.model.events import AppliedEdit
from compaction.model.markers import API_CLEARED, COMPACTION_BLOCK_PREFIX
from compaction.strategies import build

from .builders import call, results, turns, user

CLEARED = len(repr("x" * 4000)) - len(repr(API_CLEARED))  # 4,002 - 23 = 3,979 characters per cleared result


def outputs(history):
    return [b["content"] for m in history.messages if isinstance(m["content"], list)
            for b in m["content"] if b.get("type") == "tool_result"]


def test_clear_tool_uses_trigger_1000_keep_2_clears_exactly_the_older_results():
    messages = turns(4, output_chars=4000)  # about 16,700 characters: over 1,000 tokens
    before = copy.deepcopy(messages)
    history = prepare(messages)
    step = build("anthropic-clear-tool-uses", {"trigger": 1000, "keep": 2})(history, Settings())
    assert outputs(step.history) == [API_CLEARED, API_CLEARED, "x" * 4000, "x" * 4000]
    assert step.acted == ("clear_tool_uses",)
    assert step.events == (AppliedEdit("clear_tool_uses_20250919", cleared_tool_uses=2,
                                       cleared_input_tokens=math.ceil(2 * CLEARED / 4), layer="clear_tool_uses"),)
    assert step.events[0].as_dict() == {"type": "clear_tool_uses_20250919", "cleared_tool_uses": 2,
                                        "cleared_input_tokens": 1990}
    assert step.kept is history  # the client keeps its whole history
    assert messages == before
    assert step.history.sizes == [len(str(m)) for m in step.history.messages]
    assert [m["content"][0]["input"] for m in step.history.messages[1::2]] == [{"path": f"src/t{n}.py"} for n in range(4)]


def test_clear_tool_uses_under_its_trigger_sends_the_history_as_it_is():
    history = prepare(turns(4, output_chars=4000))
    step = build("anthropic-clear-tool-uses", {"trigger": history.context_tokens, "keep": 0})(history, Settings())
    assert step.history is history and step.events == ()  # "exceeds": equal is not over


def test_clear_tool_uses_keeps_excluded_tools_and_empties_inputs():
    messages = [user("go"), call("b0", name="bash"), results(("b0", "y" * 500)),
                call("r0", "r1", name="read_file"), results(("r0", "z" * 500), ("r1", "w" * 500)),
                call("r2", name="read_file"), results(("r2", "v" * 500))]
    params = {"trigger": 100, "keep": 1, "exclude_tools": ["bash"], "clear_tool_inputs": True}
    step = build("anthropic-clear-tool-uses", params)(prepare(messages), Settings())
    assert outputs(step.history) == ["y" * 500, API_CLEARED, API_CLEARED, "v" * 500]
    assert [b["input"] for b in step.history.messages[3]["content"]] == [{}, {}]  # both parallel calls cleared
    assert step.history.messages[1] is messages[1] and step.history.messages[5] is messages[5]
    assert step.events[0].cleared_tool_uses == 2
    assert check_pairs(step.history.messages) == []


def test_clear_tool_uses_applies_only_when_it_clears_at_least_that_much():
    clear = build("anthropic-clear-tool-uses", {"trigger": 1000, "keep": 0, "clear_at_least": 3000})
    three = prepare(turns(3, output_chars=4000))  # 3 x 3,979 characters = 2,985 tokens: not enough
    assert clear(three, Settings()).history is three
    four = prepare(turns(4, output_chars=4000))  # 3,980 tokens
    step = clear(four, Settings())
    assert outputs(step.history) == [API_CLEARED] * 4
    assert step.events[0].cleared_input_tokens == math.ceil(4 * CLEARED / 4)


def thinking(text):
    return {"type": "thinking", "thinking": text, "signature": "sig-" + text}


def test_clear_thinking_keeps_the_newest_turn_and_counts_a_tool_loop_as_one_turn():
    first = {"role": "assistant", "content": [thinking("plan"), {"type": "text", "text": "Reading."},
                                              {"type": "tool_use", "id": "t1", "name": "read_file", "input": {}}]}
    second = {"role": "assistant", "content": [thinking("more"), {"type": "tool_use", "id": "t2", "name": "bash",
                                                                 "input": {}}]}
    third = {"role": "assistant", "content": [thinking("answer"), {"type": "text", "text": "Done."}]}
    # first and second are one turn (a tool-use loop); the person speaks, then third is the next turn
    messages = [user("task"), first, results(("t1", "ok")), second, results(("t2", "ok")), user("now fix it"),
                third, user("thanks")]
    step = build("anthropic-clear-thinking", {})(prepare(messages), Settings())  # keep 1 thinking turn
    sent = step.history.messages
    assert sent[1]["content"] == first["content"][1:] and sent[3]["content"] == second["content"][1:]
    assert sent[6] is third  # the newest turn keeps its thinking
    removed = len(repr(first["content"][0])) + 2 + len(repr(second["content"][0])) + 2  # each block and ", "
    assert step.events == (AppliedEdit("clear_thinking_20251015", cleared_thinking_turns=1,
                                       cleared_input_tokens=math.ceil(removed / 4), layer="clear_thinking"),)
    assert step.events[0].as_dict() == {"type": "clear_thinking_20251015", "cleared_thinking_turns": 1,
                                        "cleared_input_tokens": math.ceil(removed / 4)}
    assert step.history.sizes == [len(str(m)) for m in sent]
    assert build("anthropic-clear-thinking", {"keep": 2})(prepare(messages), Settings()).events == ()
    assert build("anthropic-clear-thinking", {"keep": 0, "keep_all": True})(prepare(messages), Settings()).events == ()


def test_compact_replaces_everything_over_the_trigger_and_passes_the_instructions():
    messages = turns(3, output_chars=70_000)  # about 210,400 characters: 52,600 tokens
    history = prepare(messages)
    assert 50_000 < history.context_tokens < 60_000
    step = build("anthropic-compact", {"trigger": 50_000, "instructions": "Keep the API decisions."})(
        history, Settings())
    assert step.acted == ("compact",) and len(step.history) == 1
    block = step.history.messages[0]["content"]
    assert block.startswith(COMPACTION_BLOCK_PREFIX + "\n\n")
    assert "Focus requested: Keep the API decisions." in block  # the offline summariser notes them
    assert step.events[0].summarized_indices == tuple(range(7)) and step.kept is step.history  # permanent
    assert build("anthropic-compact", {"trigger": history.context_tokens})(history, Settings()).history is history


def test_compact_trigger_has_the_documented_minimum():
    with pytest.raises(SettingsError, match="anthropic-compact: trigger must be a whole number of tokens, "
                                            "50,000 to 10,000,000, got 49,999"):
        build("anthropic-compact", {"trigger": 49_999})
