"""Blind references and artifact retention on a small conversation worked out by hand."""

from compaction.measures.loss import SentView, artifact_retention, artifacts, blind_references, position_of
from compaction.measures.terms import TermIndex, terms_in
from compaction.model.history import prepare

CONVERSATION = [
    {"role": "user", "content": "Fix the crash in src/app/export.py. Don't add any new dependencies."},
    {"role": "assistant", "content": [
        {"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "src/app/export.py"}}]},
    {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t1", "content": "def export_rows(rows):\n    return rows[0]"}]},
    {"role": "assistant", "content": [
        {"type": "tool_use", "id": "t2", "name": "Bash", "input": {"command": "python -m app.export"}}]},
    {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t2", "is_error": True,
         "content": "IndexError: list index out of range\n  in export_rows"}]},
    {"role": "assistant", "content": [
        {"type": "text", "text": "export_rows assumes one row; IndexError on empty input."},
        {"type": "tool_use", "id": "t3", "name": "Edit",
         "input": {"file_path": "src/app/export.py", "old_string": "rows[0]", "new_string": "rows[:1]"}}]},
]
PLACEHOLDER = "[Earlier tool result compacted. Re-run if needed.]"


def _placeholder_for(index: int) -> dict:
    block = CONVERSATION[index]["content"][0]
    return {"role": "user", "content": [{**block, "content": PLACEHOLDER}]}


def _sent(replace: dict[int, dict], before: int = 5):
    prepared = prepare(CONVERSATION)
    messages = [replace.get(i, m) for i, m in enumerate(CONVERSATION[:before])]
    return SentView(prepared.derive(messages, [len(str(m)) for m in messages], list(range(before))))


def test_terms_are_paths_code_names_and_errors():
    assert terms_in(CONVERSATION[5]["content"][0]["text"]) == {"export_rows", "IndexError"}


def test_nothing_is_blind_when_everything_is_sent():
    index = TermIndex(CONVERSATION)
    # the last response uses export_rows, IndexError and src/app/export.py, all seen before and all still sent
    assert index.response_terms[5] == {"export_rows", "IndexError", "src/app/export.py"}
    assert blind_references(index, 5, _sent({})) == ()


def test_a_term_seen_only_in_a_replaced_result_is_blind():
    index = TermIndex(CONVERSATION)
    # the read of export.py (message 2) replaced by a placeholder: export_rows still shows in the
    # error (message 4), so nothing is blind yet
    assert blind_references(index, 5, _sent({2: _placeholder_for(2)})) == ()
    # both results replaced: export_rows and IndexError are blind; the path is still in messages 0 and 1
    both = _sent({2: _placeholder_for(2), 4: _placeholder_for(4)})
    assert blind_references(index, 5, both) == ("IndexError", "export_rows")


def test_text_a_strategy_wrote_keeps_a_term_in_sight():
    index = TermIndex(CONVERSATION)
    prepared = prepare(CONVERSATION)
    summary = {"role": "user", "content": "[Compacted]\n\nGoal: fix export_rows in src/app/export.py."}
    history = prepared.derive([summary, CONVERSATION[3], CONVERSATION[4]], [1, 1, 1], [None, 3, 4])
    assert blind_references(index, 5, SentView(history)) == ()  # IndexError in message 4, the rest in the summary
    history = prepared.derive([summary], [1], [None])
    assert blind_references(index, 5, SentView(history)) == ("IndexError",)


def test_artifacts_and_their_retention():
    found = artifacts(CONVERSATION, 5)
    assert sorted((a.kind, a.text) for a in found) == [
        ("constraint", "Don't add any new dependencies."),
        ("error", "IndexError: list index out of range"),
        ("file", "src/app/export.py"),
    ]
    index = TermIndex(CONVERSATION)
    assert artifact_retention(found, index, _sent({})) == 1.0
    # the error result replaced: 2 of the 3 still there verbatim
    assert artifact_retention(found, index, _sent({4: _placeholder_for(4)})) == 2 / 3
    assert artifact_retention([], index, _sent({})) is None


def test_finding_a_message_in_a_history_steps_over_made_messages():
    origins = [0, 1, 2, None, 40, 41, None, 57]
    assert [position_of(origins, o) for o in (0, 2, 40, 41, 57, 3, 50, 99)] == [0, 2, 4, 5, 7, None, None, None]
