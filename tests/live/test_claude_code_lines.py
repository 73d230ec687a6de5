"""Claude Code's lines as the follower reads them: a call is the first line of a response, its later
lines update the output; a log opening on a snapshot line is recognised; subagent lines inside a main
file are left out, a subagent's own file is its session; Claude Code's own `<synthetic>` lines and
lines without usage are no calls; a microcompact is said."""

import json

from compaction.live.follower import Follower
from compaction.live.session import CallUpdate
from tests.live.growing import CASES

IMPORTER_CASES = CASES.parent.parent / "importers" / "cases" / "valid"


def follow(path):
    follower = Follower(path)
    return follower, [item.update for item in follower.poll() if isinstance(item.update, CallUpdate)]


def test_the_later_lines_of_a_response_update_its_output(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_bytes((IMPORTER_CASES / "claude_code_response_over_three_lines.jsonl").read_bytes())
    follower, calls = follow(path)
    assert [call.call.line for call in calls] == [2, 7]
    first = follower.session.calls[0]
    assert (first.output, calls[0].call.output) == (412, 2)  # the final count; the report was at the first line
    assert follower.session.cost_usd == follower.session.calls[0].cost_usd + follower.session.calls[1].cost_usd


def test_a_subagents_own_file_is_its_session(tmp_path):
    path = tmp_path / "agent-c0ffee12.jsonl"
    path.write_bytes((IMPORTER_CASES / "claude_code_subagent_own_session.jsonl").read_bytes())
    follower, calls = follow(path)
    assert [call.call.context for call in calls] == [904, 962]
    assert follower.session.calls[0].model == "claude-haiku-4-5"


def line(**fields) -> str:
    base = {"isSidechain": False, "sessionId": "s-1", "version": "2.1.19", "timestamp": "2026-01-24T16:18:52.020Z"}
    return json.dumps(base | fields)


def answer(uuid: str, message_id: str, context: int, sidechain: bool = False, model: str = "claude-opus-4-5") -> str:
    usage = {"input_tokens": 3, "cache_creation_input_tokens": 100, "cache_read_input_tokens": context - 103,
             "output_tokens": 20}
    return line(type="assistant", uuid=uuid, isSidechain=sidechain,
                message={"id": message_id, "type": "message", "role": "assistant", "model": model, "usage": usage,
                         "content": [{"type": "text", "text": "ok"}]})


def test_what_is_not_a_call_of_the_session(tmp_path):
    path = tmp_path / "48244adb.jsonl"
    path.write_text("\n".join((
        json.dumps({"type": "file-history-snapshot", "messageId": "u1", "snapshot": {"trackedFileBackups": {}},
                    "isSnapshotUpdate": False}),
        line(type="user", uuid="u1", parentUuid=None, message={"role": "user", "content": "fix the flaky test"}),
        answer("a1", "msg_1", 20_000),
        answer("s1", "msg_side", 5_000, sidechain=True),  # a subagent's line inside the main file (1.0.x)
        line(type="assistant", uuid="x1", isApiErrorMessage=True,
             message={"id": "b9c2", "role": "assistant", "model": "<synthetic>", "content": [
                 {"type": "text", "text": "Prompt is too long"}], "usage": {"input_tokens": 0, "output_tokens": 0}}),
        line(type="system", subtype="microcompact_boundary", uuid="m1", content="Context microcompacted",
             microcompactMetadata={"trigger": "auto", "preTokens": 59_492, "tokensSaved": 21_761,
                                   "compactedToolIds": ["toolu_1"]}),
        answer("a2", "msg_2", 18_000),
    )) + "\n")
    follower, calls = follow(path)
    assert [call.call.line for call in calls] == [3, 7] and follower.title == "Claude Code"
    [note] = follower.session.notes
    assert (note.line, note.kind) == (6, "microcompact") and "21,761 tokens saved" in note.text



def test_a_log_opening_on_a_meta_line_is_followed_as_replay_reads_it(tmp_path):
    """A forked subagent's file opens on `fork-context-ref` (2.1.x), a type no follower knows: it is held
    until the next line says the log is Claude Code's, then read, as `replay` reads the file."""
    from compaction.importers import load_conversation

    meta = {"type": "fork-context-ref", "agentId": "a2026072916411600-461b702d51a31db6",
            "parentSessionId": "719f12f0-d8aa-4d12-9ac6-a5bd544bb57c",
            "parentLastUuid": "74e7df52-fd31-4e5c-8ad6-e11699eeae0b", "contextLength": 1045}
    path = tmp_path / "agent-a2026072916411600-461b702d51a31db6.jsonl"
    path.write_text(json.dumps(meta) + "\n")
    follower = Follower(path)
    assert follower.poll() == [] and follower.format is None  # one meta line: nothing to say yet
    with open(path, "a") as handle:
        handle.write((IMPORTER_CASES / "claude_code_subagent_own_session.jsonl").read_text())
    calls = [item.update for item in follower.poll() if isinstance(item.update, CallUpdate)]
    assert follower.title == "Claude Code" and [call.call.line for call in calls] == [3, 5]
    imported = load_conversation(path)
    assert len(calls) == sum(1 for usage in imported.usage if usage)


def test_lines_without_ids_are_grouped_into_responses_as_the_importer_groups_them(tmp_path):
    """A layout without message ids or request ids (a copy stripped of them): one response over three lines
    (its text, two calls; the output count grows), its two results, then another response. The importer
    makes two calls of it; so does the follower, with the last line's output."""
    from compaction.importers import load_conversation

    def no_id(uuid, parent, content, output):
        usage = {"input_tokens": 3, "cache_creation_input_tokens": 900, "cache_read_input_tokens": 19_000,
                 "output_tokens": output}
        return line(type="assistant", uuid=uuid, parentUuid=parent, message={
            "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929", "usage": usage,
            "content": [content]})

    def result(uuid, parent, tool_use_id):
        return line(type="user", uuid=uuid, parentUuid=parent, message={"role": "user", "content": [
            {"tool_use_id": tool_use_id, "type": "tool_result", "content": "util.py:12:def fmt_row(row):"}]})
    path = tmp_path / "2f1e0c1d.jsonl"
    path.write_text("\n".join((
        line(type="user", uuid="u1", parentUuid=None, message={"role": "user", "content": "rename fmt_row"}),
        no_id("a1", "u1", {"type": "text", "text": "Looking for its callers."}, 12),
        no_id("a2", "a1", {"type": "tool_use", "id": "toolu_x1", "name": "Grep", "input": {"pattern": "fmt_row"}}, 40),
        no_id("a3", "a2", {"type": "tool_use", "id": "toolu_x2", "name": "Grep", "input": {"pattern": "fmt_row("}}, 71),
        result("r1", "a3", "toolu_x1"),
        result("r2", "r1", "toolu_x2"),
        no_id("a4", "r2", {"type": "text", "text": "Two callers."}, 9),
    )) + "\n")
    follower, calls = follow(path)
    assert [call.call.line for call in calls] == [2, 7]
    assert [call.output for call in follower.session.calls] == [71, 9]  # the response's last line counts
    imported = load_conversation(path)
    assert [u["output_tokens"] for u in imported.usage if u] == [71, 9]


def test_the_files_read_written_and_edited_are_followed_by_size(tmp_path):
    """Read's result is the file as read; a Write's file is what it wrote; an Edit's result is a snippet, so its
    file is the one last read; a failed Read is no file."""
    def call(uuid, message_id, name, tool_id, given):
        return line(type="assistant", uuid=uuid, message={
            "id": message_id, "type": "message", "role": "assistant", "model": "claude-opus-4-5",
            "usage": {"input_tokens": 3, "cache_creation_input_tokens": 100, "cache_read_input_tokens": 20_000,
                      "output_tokens": 20},
            "content": [{"type": "tool_use", "id": tool_id, "name": name, "input": given}]})

    def result(uuid, tool_id, content, error=False):
        return line(type="user", uuid=uuid, message={"role": "user", "content": [
            {"tool_use_id": tool_id, "type": "tool_result", "content": content, "is_error": error}]})
    path = tmp_path / "9d1c.jsonl"
    path.write_text("\n".join((
        line(type="user", uuid="u1", message={"role": "user", "content": "tidy the invoice module"}),
        call("a1", "msg_1", "Read", "toolu_1", {"file_path": "/app/invoice.py"}),
        result("r1", "toolu_1", "     1\tdef total(lines):\n" * 100),
        call("a2", "msg_2", "Write", "toolu_2", {"file_path": "/app/notes.md", "content": "x" * 1_234}),
        result("r2", "toolu_2", "File created successfully at: /app/notes.md"),
        call("a3", "msg_3", "Edit", "toolu_3", {"file_path": "/app/invoice.py", "old_string": "a", "new_string": "b"}),
        result("r3", "toolu_3", "The file /app/invoice.py has been updated. Here's the result of running `cat -n`"),
        call("a4", "msg_4", "Read", "toolu_4", {"file_path": "/app/missing.py"}),
        result("r4", "toolu_4", "File does not exist.", error=True),
    )) + "\n")
    follower, _ = follow(path)
    read = len("     1\tdef total(lines):\n" * 100)
    assert list(follower.session.files.items()) == [("/app/notes.md", 1_234), ("/app/invoice.py", read)]
