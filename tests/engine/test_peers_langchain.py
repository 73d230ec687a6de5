"""LangChain v1 middleware: SummarizationMiddleware and ClearToolUsesEdit, worked out by hand from
their documentation and code."""

import pytest

from compaction import Settings, check_pairs, prepare
from compaction.errors import SettingsError
from compaction.model.markers import LANGCHAIN_CLEARED, LANGCHAIN_SUMMARY_PREFIX
from compaction.strategies import build

from .builders import turns


def test_summarization_keeps_the_last_messages_and_moves_the_cut_to_the_call():
    messages = turns(3)  # 0 user, then (call, result) at 1-2, 3-4, 5-6
    params = {"trigger_tokens": 0, "trigger_messages": 6, "keep_messages": 3}
    step = build("langchain-summarization", params)(prepare(messages), Settings())
    sent = step.history.messages
    # 7 messages >= 6; keeping 3 would start on result 4, so the cut moves back to its call at 3
    assert sent[1:] == messages[3:]
    assert sent[0]["content"].startswith(LANGCHAIN_SUMMARY_PREFIX + "\n\n")
    assert step.events[0].summarized_indices == (0, 1, 2) and step.acted == ("summary",)
    assert check_pairs(sent) == []
    under = build("langchain-summarization", {**params, "trigger_messages": 8})(prepare(messages), Settings())
    assert under.history.messages == messages


def test_summarization_writes_langchains_text_when_no_message_of_the_person_fits_the_trim():
    messages = turns(3, output_chars=2_000)
    params = {"trigger_tokens": 0, "trigger_messages": 6, "keep_messages": 3, "trim_tokens_to_summarize": 530}
    step = build("langchain-summarization", params)(prepare(messages), Settings())
    # of messages 0-2 (10, 31 and 523 tokens: 39, 121 and 2,090 characters), the newest 530 tokens hold only
    # the result at 2: no message of the person
    assert step.history.messages[0]["content"] == (LANGCHAIN_SUMMARY_PREFIX + "\n\n"
                                                   "Previous conversation was too long to summarize.")
    whole = build("langchain-summarization", {**params, "trim_tokens_to_summarize": 0})(prepare(messages), Settings())
    assert "too long to summarize" not in whole.history.messages[0]["content"]


def test_summarization_triggers_on_tokens_and_on_a_fraction_of_the_window():
    history = prepare(turns(3, output_chars=2_000))
    tokens = history.context_tokens
    at = build("langchain-summarization", {"trigger_tokens": tokens, "keep_messages": 3})
    assert at(history, Settings()).acted == ("summary",)  # ">=": reaching it is enough
    over = build("langchain-summarization", {"trigger_tokens": tokens + 1, "keep_messages": 3})
    assert over(history, Settings()).history is history
    fraction = build("langchain-summarization", {"trigger_tokens": 0, "trigger_fraction": 0.5,
                                                 "window_tokens": 2 * tokens, "keep_messages": 3})
    assert fraction(history, Settings()).acted == ("summary",)


def test_summarization_needs_a_trigger():
    with pytest.raises(SettingsError, match="langchain-summarization: set at least one trigger"):
        build("langchain-summarization", {"trigger_tokens": 0})


def outputs(history):
    return [m["content"][0]["content"] for m in history.messages[2::2]]


def test_clear_tool_uses_defaults_to_cleared_and_keeps_3():
    history = prepare(turns(5, output_chars=100_000))  # 500,000 characters: over 100,000 tokens
    step = build("langchain-clear-tool-uses")(history, Settings())
    assert outputs(step.history) == [LANGCHAIN_CLEARED] * 2 + ["x" * 100_000] * 3
    assert step.kept is history


def test_clear_tool_uses_stops_once_clear_at_least_is_reclaimed():
    history = prepare(turns(4, output_chars=4_000))
    # each cleared result frees 4,002 - 11 = 3,991 characters, 998 tokens: two are needed for 1,000
    step = build("langchain-clear-tool-uses", {"trigger": 1_000, "keep": 0, "clear_at_least": 1_000})(
        history, Settings())
    assert outputs(step.history) == [LANGCHAIN_CLEARED] * 2 + ["x" * 4_000] * 2
    assert step.events[0].cleared_tool_uses == 2 and step.events[0].cleared_input_tokens == 1_996
