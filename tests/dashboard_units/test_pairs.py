"""The tool-pair verdict the Pipeline page and the report share: red only for pairs the compaction broke."""

from compaction.layers.pipeline import PipelineResult, Stage, run_pipeline
from compaction.model.history import prepare
from compaction.model.settings import DEFAULTS
from dashboard.render.pairs import pair_verdict

ASK = {"role": "user", "content": "Read a.py"}
CALL = {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "read_file", "input": {"path": "a.py"}}]}
RESULT = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "x = 1"}]}
DONE = {"role": "assistant", "content": "a.py sets x."}


def test_a_whole_conversation_is_intact():
    verdict = pair_verdict(run_pipeline([ASK, CALL, RESULT, DONE]), limit=10)
    assert (verdict.level, verdict.headline, verdict.problems) == ("intact", "Tool pairs intact", [])


def test_a_call_still_waiting_in_the_input_is_kept_not_broken():
    verdict = pair_verdict(run_pipeline([ASK, CALL]), limit=10)
    assert verdict.level == "kept"
    assert verdict.text == ("What is sent keeps the 1 problem the loaded conversation already had (first: "
                            "message 1 of the loaded conversation: tool_use 't1' in the last message is never answered).")


def test_a_result_the_compaction_lost_is_broken():
    loaded = prepare([ASK, CALL, RESULT, DONE])
    sent = prepare([ASK, CALL, DONE])  # as if a layer had dropped the result
    result = PipelineResult(DEFAULTS, [Stage("input", loaded), Stage("L2", sent)],
                            problems=sent.pair_problems())
    verdict = pair_verdict(result, limit=10)
    assert (verdict.level, verdict.headline) == ("broken", "The compaction broke 1 tool pair")
    assert len(verdict.problems) == 1 and verdict.problems[0].startswith("message 1 of the loaded conversation: ")
