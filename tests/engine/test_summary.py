"""L4 compact_history and the offline summariser."""

import json

from compaction import OfflineSummarizer, OutputStore, SummarizerError, compact_history

from .builders import call, results, turns, user


class FailingSummarizer:
    name = "failing"

    def summarize(self, messages, focus=None):
        raise SummarizerError("the summariser is down")


def coding_session():
    messages = [user("Add a --verbose flag to cli.py. Don't add new dependencies.")]
    messages += [call("r1", name="read_file"), results(("r1", "import argparse\n..."))]
    messages += [{"role": "assistant", "content": [
        {"type": "text", "text": "The parser lives in cli.py; I will add the flag there."},
        {"type": "tool_use", "id": "e1", "name": "edit_file", "input": {"path": "cli.py", "old": "a", "new": "b"}}]}]
    messages += [results(("e1", "ok"))]
    messages += [{"role": "assistant", "content": [
        {"type": "tool_use", "id": "b1", "name": "bash", "input": {"command": "pytest -q tests/test_cli.py"}}]}]
    messages += [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "b1", "is_error": True,
                  "content": "FAILED tests/test_cli.py::test_verbose - AssertionError: expected DEBUG"}]}]
    messages += [{"role": "assistant", "content": "The verbose test fails: logging level is not set yet."}]
    return messages


def test_whole_history_becomes_one_compacted_message(tmp_path):
    messages = turns(5)
    out = compact_history(messages, OfflineSummarizer(), OutputStore(tmp_path), reason="test")
    [message] = out.messages
    assert message["role"] == "user" and message["content"].startswith("[Compacted]\n\n")
    [event] = out.events
    assert event.triggered and event.succeeded and event.summarizer == "offline"
    assert event.summarized_indices == tuple(range(len(messages)))
    lines = event.transcript_path.read_text().splitlines()
    assert [json.loads(line) for line in lines] == messages


def test_failed_summary_keeps_the_history_and_says_why(tmp_path):
    messages = turns(3)
    out = compact_history(messages, FailingSummarizer(), OutputStore(tmp_path))
    assert out.messages == messages
    assert out.events[0].error == "the summariser is down" and not out.events[0].succeeded
    assert out.events[0].transcript_path.exists()  # written before the summariser was asked


def test_offline_summary_fills_the_five_headings_from_the_conversation():
    text = OfflineSummarizer().summarize(coding_session())
    for heading in ("1. Current goal", "2. Key findings and decisions", "3. Files read or changed",
                    "4. Remaining work", "5. User constraints"):
        assert heading in text
    assert "Add a --verbose flag to cli.py" in text
    assert "changed: cli.py" in text and "read: src/r1.py" in text
    assert "pytest -q tests/test_cli.py" in text
    assert "Error seen: bash: FAILED tests/test_cli.py::test_verbose" in text
    assert "Don't add new dependencies." in text
    assert "logging level is not set yet" in text
    assert "- Tool calls: read_file ×1, edit_file ×1, bash ×1" in text


def test_offline_summary_is_deterministic_and_bounded():
    messages = turns(400)
    first, second = OfflineSummarizer().summarize(messages), OfflineSummarizer().summarize(messages)
    assert first == second
    assert len(first) < 2_500
    assert "… and" in first  # long lists are cut with a count, not dumped


def test_a_summary_of_a_summary_keeps_goal_files_and_constraints(tmp_path):
    store = OutputStore(tmp_path)
    first = compact_history(coding_session(), OfflineSummarizer(), store).messages
    later = first + [call("r2", name="read_file"), results(("r2", "more")), user("Now also update the docs.")]
    text = OfflineSummarizer().summarize(compact_history(later, OfflineSummarizer(), store).messages)
    assert "- Now also update the docs. (original task: Add a --verbose flag to cli.py." in text
    assert "changed: cli.py" in text and "src/r1.py" in text and "src/r2.py" in text
    assert "pytest -q tests/test_cli.py" in text
    assert "- Don't add new dependencies." in text
    assert "Error seen: bash: FAILED tests/test_cli.py::test_verbose" in text
    assert "- Tool calls: read_file ×2, edit_file ×1, bash ×1" in text  # counted across both summaries


def test_every_summary_marker_is_read_as_a_summary_not_a_request():
    from compaction.model.markers import summary_prefixes

    assert len(summary_prefixes()) >= 10  # the lab's, the peers' and every agent's
    for prefix in summary_prefixes():
        text = OfflineSummarizer().summarize([{"role": "user", "content": f"{prefix}\n\nGoal: ship it."}])
        assert "(no user request in the summarised messages)" in text
        assert "Earlier summary: Goal: ship it." in text
