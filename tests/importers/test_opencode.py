"""OpenCode's sessions, read from the hand-written cases (cases/valid/opencode_*.json and
cases/opencode_database.sql, written from the layout of real exports, server answers and 1.x databases):
one model call per step with its step-finish's usage and cost, the compaction part and its summary
message as the log's compaction, the summary call counted apart, and every session of a database or an
export of several listed in a corpus."""

import json
import sqlite3
from pathlib import Path

import pytest

from compaction import replay
from compaction.agents import agent_of
from compaction.corpus import discover
from compaction.errors import ConversationError
from compaction.importers import load_conversation, load_run
from compaction.importers.formats import detect_binary, detect_document, find
from compaction.importers.runs import runs_in
from compaction.model.markers import is_summary

CASES = Path(__file__).parent / "cases"
EXPORT = CASES / "valid" / "opencode_export_compaction.json"


def plain_count(messages: list[dict]) -> dict:
    """What the raw messages say, counted as a person would: a call per step-finish part outside the
    summary messages, their tokens and their cost; the summary messages and their cost apart."""
    calls, tokens, cost, summaries, summary_cost = 0, 0, 0.0, 0, 0.0
    for message in messages:
        finishes = [part for part in message["parts"] if part["type"] == "step-finish"]
        if message["info"].get("summary") is True:
            summaries += 1
            summary_cost += sum(part["cost"] for part in finishes)
            continue
        for part in finishes:
            calls += 1
            tokens += part["tokens"]["input"] + part["tokens"]["output"] + part["tokens"]["reasoning"] \
                + part["tokens"]["cache"]["read"] + part["tokens"]["cache"]["write"]
            cost += part["cost"]
    return {"calls": calls, "tokens": tokens, "cost": round(cost, 9), "summaries": summaries,
            "summary_cost": round(summary_cost, 9)}


def loaded_count(conversation) -> dict:
    usage = [u for m, u in zip(conversation.messages, conversation.usage, strict=True) if m["role"] == "assistant"]
    keys = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens")
    return {"calls": len(usage), "tokens": sum(sum(u[k] for k in keys) for u in usage if u),
            "cost": conversation.metadata["logged_cost_usd"], "summaries": conversation.metadata["compaction_calls"],
            "summary_cost": conversation.metadata["compaction_cost_usd"]}


def database(tmp_path: Path, name: str = "opencode.db", wal: bool = False) -> Path:
    path = tmp_path / name
    with sqlite3.connect(path) as connection:
        if wal:
            connection.execute("PRAGMA journal_mode=WAL")
        connection.executescript((CASES / "opencode_database.sql").read_text(encoding="utf-8"))
    connection.close()
    return path


def test_an_export_loads_as_opencode_where_it_was_refused_as_anthropic():
    value = json.loads(EXPORT.read_text(encoding="utf-8"))
    assert detect_document(value).name == "opencode" and agent_of("opencode").title == "OpenCode"
    assert find("opencode").suffixes == (".json", ".db")
    assert load_conversation(EXPORT).format == "opencode"


@pytest.mark.parametrize("name", ["opencode_export_compaction.json", "opencode_session_messages.json"])
def test_calls_usage_and_cost_equal_a_plain_count_of_the_file(name):
    value = json.loads((CASES / "valid" / name).read_text(encoding="utf-8"))
    messages = value["messages"] if isinstance(value, dict) else value
    expected = plain_count(messages)
    found = loaded_count(load_conversation(CASES / "valid" / name))
    # the aborted reply of the server's answer is a call with no step-finish: one call more, no tokens
    extra = 1 if name == "opencode_session_messages.json" else 0
    assert found == {**expected, "calls": expected["calls"] + extra}


def test_the_compaction_part_and_its_summary_are_the_logs_compaction():
    conversation = load_conversation(EXPORT)
    [boundary] = conversation.metadata["compact_boundaries"]
    summary = conversation.messages[boundary["index"]]
    assert boundary["trigger"] == "auto" and boundary["pre_tokens"] == 12 + 4380 + 520
    assert is_summary(summary) and summary["content"].startswith("What did we do so far?\n\n## Goal")
    assert conversation.metadata["compact_summary_indices"] == [boundary["index"]]
    assert conversation.usage[boundary["index"]] is None  # the summary call is counted apart, not as a call
    assert boundary["summary_call"]["cost_usd"] == 0.0231


def test_as_recorded_sends_the_summary_and_what_followed():
    result = replay(load_conversation(EXPORT), strategy="as-recorded")
    last = result.calls[-1]
    assert last.acted == ("log_compaction",) and last.messages == 2  # the summary and "Continue ..."
    assert last.tokens == 8 + 900  # what the log recorded for that call


def test_a_tool_still_running_is_answered_as_opencode_answers_it():
    conversation = load_conversation(CASES / "valid" / "opencode_session_messages.json")
    results = [block for block in conversation.messages[2]["content"] if block["type"] == "tool_result"]
    assert results[1] == {"type": "tool_result", "tool_use_id": "call_tests",
                          "content": "[Tool execution was interrupted]", "is_error": True}
    assert conversation.metadata["interrupted_tools"] == 1 and conversation.metadata["prompts_after_results"] == 1


def test_a_database_lists_each_session_and_reads_each(tmp_path):
    path = database(tmp_path)
    keys = runs_in(path)
    assert [(key.name, key.format) for key in keys] == [("Build a portfolio page", "opencode"),
                                                        ("Serve it with Flask", "opencode")]
    second = load_run(path, keys[1])
    assert second.metadata["session_id"] == "ses_1279fce82ffeZOJhNwml1w1Fu4" and second.metadata["calls"] == 1
    assert second.usage[1]["cost_usd"] == 0.02
    names = [item.name for item in discover(tmp_path)]
    assert names == ["opencode.db [Build a portfolio page]", "opencode.db [Serve it with Flask]"]


def test_a_database_loaded_whole_reads_its_first_session_and_says_how_many(tmp_path):
    path = database(tmp_path)
    whole = load_conversation(path)
    assert whole.metadata["title"] == "Build a portfolio page" and whole.metadata["calls"] == 2
    assert str(whole.warnings[0]).startswith("the file holds 2 sessions; the first (Build a portfolio page)")
    upload = load_conversation(path.read_bytes(), name="opencode.db")
    assert (upload.messages, upload.usage) == (whole.messages, whole.usage)
    assert detect_binary(path.read_bytes()).name == "opencode"


def test_an_upload_of_a_wal_database_reads_what_was_checkpointed_and_says_so(tmp_path):
    path = database(tmp_path, wal=True)
    upload = load_conversation(path.read_bytes(), name="opencode.db")
    assert upload.metadata["calls"] == 2
    assert any(warning.kind == "without_wal" for warning in upload.warnings)
    assert not any(warning.kind == "without_wal" for warning in load_conversation(path).warnings)


def test_a_sqlite_file_of_another_program_is_not_read_as_opencode(tmp_path):
    path = tmp_path / "notes.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE note (id integer, text text)")
    connection.close()
    assert detect_binary(path.read_bytes()) is None and runs_in(path) == ()
    with pytest.raises(ConversationError, match="not a text log"):
        load_conversation(path)


def test_an_export_of_several_sessions_lists_each(tmp_path):
    one = json.loads(EXPORT.read_text(encoding="utf-8"))
    two = {"info": {**one["info"], "id": "ses_3f1c0a2b7ffeQ2mV8kLx1Rt4Zq", "title": "Second"},
           "messages": one["messages"][:3]}
    path = tmp_path / "sessions.json"
    path.write_text(json.dumps([one, two]), encoding="utf-8")
    keys = runs_in(path)
    assert [key.name for key in keys] == ["Fix the date parser", "Second"]
    assert load_run(path, keys[1]).metadata["calls"] == 2
    assert load_conversation(path).warnings[0].kind == "first_run"


def stored(root: Path, old: bool = False) -> Path:
    """The export's session written out as the older storage folder lays it out."""
    value = json.loads(EXPORT.read_text(encoding="utf-8"))
    session_id = value["info"]["id"]
    base = root / "storage"
    info = base / "session" / ("info" if old else value["info"]["projectID"]) / f"{session_id}.json"
    info.parent.mkdir(parents=True)
    info.write_text(json.dumps(value["info"], indent=2), encoding="utf-8")
    for message in value["messages"]:
        folder = (base / "session" / "message" / session_id) if old else (base / "message" / session_id)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{message['info']['id']}.json").write_text(json.dumps(message["info"], indent=2), encoding="utf-8")
        parts = (base / "session" / "part" / session_id / message["info"]["id"]) if old else \
            (base / "part" / message["info"]["id"])
        parts.mkdir(parents=True)
        for part in message["parts"]:  # each part's own file names its session and message, as OpenCode writes it
            own = {**part, "sessionID": session_id, "messageID": message["info"]["id"]}
            (parts / f"{part['id']}.json").write_text(json.dumps(own, indent=2), encoding="utf-8")
    return info


@pytest.mark.parametrize("old", [False, True], ids=["storage", "oldest storage"])
def test_the_older_storage_files_read_as_the_export_does(tmp_path, old):
    info = stored(tmp_path, old)
    [key] = runs_in(info)
    from_files = load_run(info, key)
    from_export = load_conversation(EXPORT)
    assert (from_files.messages, from_files.usage) == (from_export.messages, from_export.usage)
    assert from_files.metadata["layout"] == "storage"
    assert [item.name for item in discover(tmp_path)] == [f"{info.relative_to(tmp_path)} [Fix the date parser]"]
    part = next((tmp_path / "storage").rglob("prt_*.json"))
    with pytest.raises(ConversationError, match="one file of OpenCode's older storage"):
        load_conversation(part)
