"""Gemini CLI's chat compression, worked out by hand from chatCompressionService.ts."""

from compaction import Settings, check_pairs, prepare
from compaction.agents.gemini_cli.markers import SUMMARY_PREFIX as GEMINI_SUMMARY_PREFIX
from compaction.agents.gemini_cli.preset import ACKNOWLEDGEMENT, shorten, split_point, within_budget
from compaction.strategies import build

from .builders import assistant, call, results, user


def session():
    """Sizes 39, 119, 4,089, 72, 39, 119, 1,089, 72, 41 characters (5,679 in all; 1,425 tokens sent)."""
    return [user("task one"), call("a"), results(("a", "x" * 4000)), assistant("done one"), user("task two"),
            call("b"), results(("b", "y" * 1000)), assistant("done two"), user("task three")]


def test_the_split_is_the_first_message_of_the_person_past_seventy_percent():
    messages = session()
    sizes = [len(str(m)) for m in messages]
    # 70 % of 5,679 is 3,975.3; the person's messages start at 0 (0 before them) and 4 (4,319 before it);
    # 6 is a tool turn and does not count
    assert split_point(messages, sizes, 0.7) == 4
    assert split_point(messages[:4], sizes[:4], 0.7) == 4  # none past it, the last is an answer: all of it
    assert split_point(messages[:3], sizes[:3], 0.7) == 0  # none past it, the last is a tool turn: nothing


def test_it_fires_at_half_the_window_and_keeps_the_newest_share():
    messages = session()
    assert build("gemini-cli", {"window_tokens": 2_852})(prepare(messages), Settings()).acted == ()  # 1,426 > 1,425
    step = build("gemini-cli", {"window_tokens": 2_850})(prepare(messages), Settings())  # 1,425 >= 1,425
    sent = step.history.messages
    assert sent[0]["content"].startswith(GEMINI_SUMMARY_PREFIX + "\n\n")
    assert sent[1] == {"role": "assistant", "content": ACKNOWLEDGEMENT}
    assert sent[2:] == messages[4:]
    assert step.events[0].summarized_indices == (0, 1, 2, 3) and check_pairs(sent) == []


def test_older_tool_outputs_past_the_budget_are_shortened_newest_first():
    messages = [user("go"), call("a"), results(("a", "a" * 4000)), call("b"), results(("b", "b" * 4000))]
    shortened, sizes = within_budget(prepare(messages), 1_100, 500)
    # the newest output (1,000 tokens) fits the 1,100; the older one would make 2,000: cut to 500 characters
    assert shortened[4] is messages[4]
    text = shortened[2]["content"][0]["content"]
    assert text.startswith("Output too large. Showing first 100 and last 400 characters.")
    assert "... [3,500 characters omitted] ..." in text and text.endswith("a" * 400)
    assert sizes[2] == len(str(shortened[2])) and messages[2]["content"][0]["content"] == "a" * 4000
    assert shorten("short", 500) == "short"
