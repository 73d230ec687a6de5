"""Probe questions through the real anthropic SDK against the local fake Messages API."""

import json

import pytest

from compaction.measures.probes import KINDS, ProbeError, Prober, probe_score

FULL = [{"role": "user", "content": "Fix the crash in src/app/export.py; do not add dependencies."},
        {"role": "assistant", "content": "export_rows assumed one row; guarding the empty case."}]
COMPACTED = [{"role": "user", "content": "[Compacted]\n\nGoal: fix export_rows."}]
QUESTIONS = [{"kind": kind, "question": f"{kind} question?", "answer": f"{kind} answer"} for kind in KINDS]


def _queue(server, answers: list[str], scores: list[int]):
    server.reply("Here they are:\n```json\n" + json.dumps(QUESTIONS) + "\n```")
    server.reply(json.dumps([{"kind": kind, "answer": text} for kind, text in zip(KINDS, answers, strict=True)]))
    server.reply(json.dumps([{"kind": kind, "score": score, "reason": "r"} for kind, score in
                             zip(KINDS, scores, strict=True)]))


def test_questions_come_from_the_full_context_and_answers_from_the_compacted_one(fake_anthropic):
    _queue(fake_anthropic, ["a1", "a2", "I cannot tell", "a4"], [5, 4, 0, 7])
    probes = Prober(api_key="sk-test-probe", base_url=fake_anthropic.url).run(FULL, COMPACTED)
    assert [(p.kind, p.reference, p.answer, p.score) for p in probes] == [
        ("recall", "recall answer", "a1", 5), ("artifact", "artifact answer", "a2", 4),
        ("continuation", "continuation answer", "I cannot tell", 0),
        ("decision", "decision answer", "a4", 5),  # a score past the scale is taken as its top
    ]
    assert probe_score(probes) == 14 / 20
    asked, answered, graded = [body["messages"][0]["content"] for body in fake_anthropic.bodies()]
    assert "src/app/export.py" in asked and "src/app/export.py" not in answered
    assert "Goal: fix export_rows." in answered and "3. (continuation) continuation question?" in answered
    assert "Reference: decision answer\nCandidate: a4" in graded


def test_an_unreadable_reply_is_a_clear_error(fake_anthropic):
    fake_anthropic.reply("I would rather not.")
    with pytest.raises(ProbeError, match="question step could not be read as the list of 4"):
        Prober(api_key="sk-test-probe", base_url=fake_anthropic.url).run(FULL, COMPACTED)


def test_a_failure_names_the_problem_and_never_the_key(fake_anthropic):
    fake_anthropic.error(401, "invalid x-api-key sk-test-secret-1234")
    with pytest.raises(ProbeError) as caught:
        Prober(api_key="sk-test-secret-1234", base_url=fake_anthropic.url, max_retries=0).run(FULL, COMPACTED)
    assert "Probe questions failed" in str(caught.value) and "sk-test-secret-1234" not in str(caught.value)


def test_without_a_key_nothing_is_sent(fake_anthropic):
    with pytest.raises(ProbeError, match="No Anthropic API key"):
        Prober(base_url=fake_anthropic.url).run(FULL, COMPACTED)
    assert fake_anthropic.bodies() == []
