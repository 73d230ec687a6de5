"""Mending the pairs across a dropped middle (model/mending.py): results whose calls went stay as text, a
kept call whose result went is answered with a stand-in, a join that holds is left as it is."""

from compaction import check_pairs
from compaction.model.mending import MISSING, mended_join

CALL = {"role": "assistant", "content": [{"type": "text", "text": "reading"},
                                         {"type": "tool_use", "id": "a", "name": "read", "input": {}}]}
ANSWER = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": "file text"}]}
LATER = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "z", "content": [{"type": "text", "text": "out"}]},
                                     {"type": "text", "text": "env"}]}


def test_a_join_that_holds_is_the_same_message():
    assert mended_join(CALL, ANSWER) is ANSWER
    assert mended_join({"role": "assistant", "content": "done"}, {"role": "user", "content": "next"})["content"] == "next"


def test_a_result_whose_call_went_stays_as_text_and_a_kept_call_gets_a_stand_in():
    joined = mended_join(CALL, LATER)
    assert joined["content"] == [{"type": "tool_result", "tool_use_id": "a", "content": MISSING},
                                 {"type": "text", "text": "out"}, {"type": "text", "text": "env"}]
    assert check_pairs([CALL, joined]) == [] and LATER["content"][0]["type"] == "tool_result"  # not changed


def test_after_a_head_without_calls_every_result_is_text():
    joined = mended_join({"role": "user", "content": "task"}, LATER)
    assert [block["type"] for block in joined["content"]] == ["text", "text"]
    assert mended_join(None, ANSWER)["content"] == [{"type": "text", "text": "file text"}]
