"""The offline summariser writes each summary once and reads back its own summaries without parsing them:
whatever it is given (line breaks of every kind in commands, paths, names and requests included), a
summary is the one a fresh summariser writes, which parses every earlier summary from its text."""

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from compaction import OfflineSummarizer

# the characters str.splitlines breaks at, and text that looks like the summary's own headings and lines
BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
words = st.text(alphabet=string.ascii_letters + " .,;:×-!" + BREAKS, max_size=30) | st.sampled_from(
    ["1. Current goal", "- read: a, b", "Tool calls: x ×3", "Error seen: boom", "x (original task: y)",
     "must not use numpy", "error: not found", "a; b", "… and 3 more", ""])


@st.composite
def messages(draw):
    found = []
    for number in range(draw(st.integers(1, 12))):
        kind = draw(st.sampled_from(["user", "assistant", "call", "result"]))
        if kind == "user":
            found.append({"role": "user", "content": draw(words)})
        elif kind == "assistant":
            found.append({"role": "assistant", "content": draw(words)})
        elif kind == "call":
            found.append({"role": "assistant", "content": [
                {"type": "text", "text": draw(words)},
                {"type": "tool_use", "id": f"t{number}", "name": draw(st.sampled_from(["read_file", "edit_file",
                                                                                       "bash", draw(words)])),
                 "input": {"path": draw(words), "command": draw(words)}}]})
        else:
            found.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{number - 1}",
                                                       "is_error": draw(st.booleans()), "content": draw(words)}]})
    return found


def summary(text: str) -> dict:
    return {"role": "user", "content": f"[Compacted]\n\n{text}"}


@settings(max_examples=150, deadline=None)
@given(st.lists(messages(), min_size=1, max_size=4), st.sampled_from([None, "the tests", "a\nb\r\n1. Current goal"]))
def test_a_chain_of_summaries_is_the_one_a_fresh_summariser_writes(parts, focus):
    shared = OfflineSummarizer(max_items=3)
    before_shared = before_fresh = None
    for part in parts:
        text_shared = shared.summarize(([summary(before_shared)] if before_shared else []) + part, focus)
        again = shared.summarize(([summary(before_shared)] if before_shared else []) + part, focus)
        text_fresh = OfflineSummarizer(max_items=3).summarize(
            ([summary(before_fresh)] if before_fresh else []) + part, focus)
        assert text_shared == text_fresh == again
        before_shared, before_fresh = text_shared, text_fresh


def test_the_same_notes_are_summarised_once():
    summarizer = OfflineSummarizer()
    history = [{"role": "user", "content": "Fix the parser. Don't add dependencies."},
               {"role": "assistant", "content": "Reading it."}]
    first = summarizer.summarize(history)
    copies = [dict(message) for message in history]  # other objects, the same notes
    assert summarizer.summarize(copies) is first
    assert summarizer.summarize(copies[:1]) != first
