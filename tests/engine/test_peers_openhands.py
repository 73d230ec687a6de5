"""OpenHands' condensers and the Complexity Trap's hybrid, one event taken as one message, each worked
out by hand from their code."""

import pytest

from compaction import Settings, check_pairs, prepare
from compaction.agents.openhands.markers import BROWSER_OMITTED, CONDENSATION_PREFIX
from compaction.errors import SettingsError
from compaction.model.markers import MASK, TURNS_SUMMARY_PREFIX
from compaction.strategies import build

from .builders import call, results, turns, user


def outputs(history):
    return [b["content"] for m in history.messages if isinstance(m["content"], list)
            for b in m["content"] if b.get("type") == "tool_result"]


def test_masking_masks_every_result_outside_the_attention_window():
    messages = turns(3, output_chars=3)  # results at 2, 4, 6; 7 messages
    step = build("openhands-masking", {"attention_window": 3})(prepare(messages), Settings())
    # i < 7 - 3: only the result at 2 is outside the window; short outputs are masked too
    assert outputs(step.history) == [MASK, "xxx", "xxx"]
    assert step.acted == ("mask",) and len(step.history) == 7


def test_recent_sends_the_first_message_and_the_newest_and_keeps_the_whole_history():
    messages = turns(3)  # 7 messages
    history = prepare(messages)
    step = build("openhands-recent", {"keep_first": 1, "max_events": 4})(history, Settings())
    # head [0], tail of 3 would start on result 4: the cut moves back to its call at 3
    assert step.history.messages == [messages[0], *messages[3:]]
    assert step.kept is history and step.acted == ("forget",)
    assert step.events[0].start == 1 and step.events[0].end == 2 and step.events[0].count == 2
    assert build("openhands-recent", {"max_events": 7})(history, Settings()).history is history


def test_amortized_forgetting_keeps_the_first_and_half_of_max_size_for_good():
    messages = turns(3)  # 7 messages > max_size 6
    step = build("openhands-amortized", {"max_size": 6, "keep_first": 1})(prepare(messages), Settings())
    assert step.history.messages == [messages[0], messages[5], messages[6]]  # tail 6 // 2 - 1 = 2
    assert step.carry is None  # a condensation is recorded: permanent


def test_amortized_forgetting_checks_keep_first_against_max_size():
    with pytest.raises(SettingsError, match="keep_first must be less than max_size // 2"):
        build("openhands-amortized", {"max_size": 4, "keep_first": 2})


def test_llm_condenser_summarises_the_older_half_after_the_first_messages():
    messages = turns(4)  # 9 messages > max_size 8
    step = build("openhands-llm", {"max_size": 8, "keep_first": 1})(prepare(messages), Settings())
    # tail 8 // 2 - 1 - 1 = 2: messages 1-6 forgotten, the summary in their place
    sent = step.history.messages
    assert sent[0] is messages[0] and sent[2:] == messages[7:]
    assert sent[1]["content"].startswith(CONDENSATION_PREFIX + "\n\n")
    assert step.events[0].summarized_indices == tuple(range(1, 7)) and step.acted == ("condense",)


def test_llm_condenser_moves_the_end_forward_past_a_call_and_summarises_an_earlier_summary_again():
    messages = turns(3)  # 7 > 6; tail 6 // 2 - 1 - 1 = 1 would start on result 6: the end moves to 7
    step = build("openhands-llm", {"max_size": 6, "keep_first": 1})(prepare(messages), Settings())
    assert len(step.history) == 2 and check_pairs(step.history.messages) == []
    grown = step.history.messages + turns(3, prefix="u")[1:]  # [task, summary] + 6 new messages
    again = build("openhands-llm", {"max_size": 6, "keep_first": 1})(prepare(grown), Settings())
    summary = again.history.messages[1]["content"]
    assert summary.startswith(CONDENSATION_PREFIX) and "Earlier summary" not in summary
    assert "read_file ×6" in summary  # the earlier summary's three calls carried into the new one


def test_pipeline_masks_all_but_the_two_newest_browser_outputs():
    messages = [user("look it up"), call("b0", name="browser"), results(("b0", "page 0")),
                call("r0", name="read_file"), results(("r0", "file")), call("b1", name="browser"),
                results(("b1", "page 1")), call("b2", name="web_read"), results(("b2", "page 2"))]
    step = build("openhands-pipeline")(prepare(messages), Settings())
    assert outputs(step.history) == [BROWSER_OMITTED, "file", "page 1", "page 2"]
    assert step.acted == ("mask",)


def test_hybrid_summarises_n_turns_once_n_plus_m_wait():
    messages = turns(3)
    params = {"mask_window": 5, "summarize_every": 2, "keep_last_turns": 1}
    step = build("hybrid", params)(prepare(messages), Settings())
    sent = step.history.messages
    assert sent[0] is messages[0] and sent[2:] == messages[5:]  # turns 1-2 (messages 1-4) summarised
    assert sent[1]["content"].startswith(TURNS_SUMMARY_PREFIX)
    assert build("hybrid", {**params, "keep_last_turns": 2})(prepare(messages), Settings()).acted == ()


def test_hybrid_masks_old_outputs_to_a_line_count():
    messages = [user("go")]
    for n in range(4):
        messages += [call(f"t{n}"), results((f"t{n}", "line\n" * (n + 1)))]
    step = build("hybrid", {"mask_window": 2})(prepare(messages), Settings())
    assert outputs(step.history) == ["Old environment output: (1 lines omitted)",
                                     "Old environment output: (2 lines omitted)", "line\n" * 3, "line\n" * 4]
