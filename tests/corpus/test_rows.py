"""One session's row, with expectations worked out by hand on small conversations."""

import json

import pytest

from compaction.corpus import COLUMNS, Job, discover, session_row
from compaction.corpus.rows import log_facts
from compaction.model.conversation import Conversation
from compaction.model.history import prepare

ANSWERED = [
    {"role": "user", "content": "Fix the bug"},
    {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "read_file", "input": {"path": "a.py"}}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "x" * 400}]},
    {"role": "assistant", "content": "Done."},
]
# The tool call is answered by text, not a tool_result: the API would refuse the second call.
UNANSWERED = [ANSWERED[0], ANSWERED[1], {"role": "user", "content": "never mind"}, ANSWERED[3]]


def row_of(folder, name, messages_or_text, job=None):
    text = messages_or_text if isinstance(messages_or_text, str) else json.dumps(messages_or_text)
    (folder / name).write_text(text, encoding="utf-8")
    [item] = [found for found in discover(folder) if found.relative == name]
    return session_row(item, job or Job())


def tokens(chars: int) -> int:
    return -(-chars // 4)  # characters / 4, rounded up: the estimate without recorded usage


def answer(index: int) -> int:
    """Estimated tokens of the response a call produced (the assistant message at `index`)."""
    return tokens(len(str(ANSWERED[index])))


def test_a_small_session_row(tmp_path):
    row = row_of(tmp_path, "fix.json", ANSWERED)
    assert list(row) == list(COLUMNS)
    # nothing compacts at the default settings: the calls send messages[:1] and messages[:3] whole
    first, second = tokens(len(str(ANSWERED[:1]))), tokens(len(str(ANSWERED[:3])))
    cache_aware = ("cost_usd", "cache_hit_rate")  # the cache model's own arithmetic, checked in its tests
    assert {**row, "bytes": None, **dict.fromkeys(cache_aware)} == dict.fromkeys(COLUMNS) | {
        "path": "fix.json", "project": tmp_path.name, "session": "fix", "format": "anthropic",
        "format_title": "Anthropic", "kind": "session",
        "messages": 4, "model_calls": 2, "paid_calls": 2, "chars": len(str(ANSWERED)), "log_compactions": 0,
        "load_warnings": 0,
        "input_pair_problems": 0, "tokens_sent": first + second, "raw_tokens_sent": first + second,
        "saved_share": 0.0, "peak_tokens": second, "raw_peak_tokens": second, "summaries": 0, "reactive": 0,
        "over_window_calls": 0, "tool_output_kept": 1.0, "calls_with_pair_problems": 0,
        # nothing is compacted, so nothing is lost; without caching each call pays its input at $3 and the
        # response it produced (estimated: characters / 4) at $15 per million tokens
        "blind_references": 0, "artifact_retention": 1.0, "recorded_from_totals": False,
        "price_notes": ["the conversation names no model: priced at the default prices ($3 / $15 per million tokens)"],
        "cost_usd_no_cache": pytest.approx((3 * (first + second) + 15 * (answer(1) + answer(3))) / 1e6)}
    assert row["bytes"] == (tmp_path / "fix.json").stat().st_size
    assert row["cost_usd"] > 0 and 0 < row["cache_hit_rate"] < 1  # the second call reads the first's prefix


def test_pair_problems_in_the_input_and_in_the_calls(tmp_path):
    row = row_of(tmp_path, "broken.json", UNANSWERED)
    assert row["error"] is None
    assert row["input_pair_problems"] == 1  # t1 is never answered
    assert row["calls_with_pair_problems"] == 1  # the second call carries the unanswered tool_use


def test_compaction_saves_tokens_at_small_settings(tmp_path):
    job = Job(settings=Job().settings.replace(keep_recent=0, min_placeholder_chars=10))
    row = row_of(tmp_path, "fix.json", ANSWERED, job)
    # L2 turns the 400-character result into a placeholder before the second call, so less is sent
    assert row["tokens_sent"] < row["raw_tokens_sent"] and 0 < row["saved_share"] < 1
    assert row["calls_with_pair_problems"] == 0  # the placeholder keeps the pair


def test_a_corrupt_file_is_a_row_with_its_error(tmp_path):
    cut = '[{"role": "user", "content": "Fix'
    row = row_of(tmp_path, "cut.json", cut)
    assert row["error"].startswith("cut.json: not valid JSON: line 1")
    assert row["path"] == "cut.json" and row["bytes"] == len(cut)
    assert all(row[name] is None for name in ("messages", "tokens_sent", "format"))


def test_what_a_log_records_is_summed_per_call():
    usage = [None, {"input_tokens": 10, "cache_creation_input_tokens": 100, "cache_read_input_tokens": 1000,
                    "output_tokens": 5},
             None, {"input_tokens": 20, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 1200,
                    "output_tokens": 7}]
    conversation = Conversation(
        ANSWERED, format="claude-code", usage=usage,
        timestamps=["2025-03-14T09:00:01Z", "2025-03-14T09:00:09Z", None, "2025-03-14T09:03:00Z"],
        metadata={"session_id": "abc-123", "compact_boundaries": [{"index": 2}, {"index": 3}]})
    facts = log_facts(conversation, prepare(conversation))
    assert facts["recorded_tokens"] == 1110 + 1220 and facts["recorded_peak_tokens"] == 1220
    assert (facts["first_time"], facts["last_time"]) == ("2025-03-14T09:00:01Z", "2025-03-14T09:03:00Z")
    assert facts["log_compactions"] == 2 and facts["session"] == "abc-123"


def test_a_log_without_usage_has_no_recorded_tokens():
    facts = log_facts(Conversation(ANSWERED), prepare(ANSWERED))
    assert facts["recorded_tokens"] is None and facts["recorded_peak_tokens"] is None
    assert facts["first_time"] is None and facts["log_compactions"] == 0


def claude_code_line(kind, uuid, parent, time, **fields):
    return json.dumps({"type": kind, "uuid": uuid, "parentUuid": parent, "isSidechain": False,
                       "sessionId": "sess-1", "timestamp": time, **fields})


def response(uuid, parent, time, message_id, blocks, usage):
    return claude_code_line("assistant", uuid, parent, time, message={
        "id": message_id, "type": "message", "role": "assistant", "content": blocks, "usage": usage})


def test_a_claude_code_log_row(tmp_path):
    use = {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {"file_path": "a.py"}}
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "def f():\n    return 1\n"}
    lines = [
        claude_code_line("user", "u1", None, "2025-03-14T09:00:00Z", message={"role": "user", "content": "Fix f"}),
        response("a1", "u1", "2025-03-14T09:00:05Z", "msg_1", [use],
                 {"input_tokens": 10, "cache_creation_input_tokens": 2000, "cache_read_input_tokens": 0,
                  "output_tokens": 30}),
        claude_code_line("user", "r1", "a1", "2025-03-14T09:00:06Z", message={"role": "user", "content": [result]},
                         toolUseResult={"stdout": result["content"]}),
        response("a2", "r1", "2025-03-14T09:00:09Z", "msg_2", [{"type": "text", "text": "Fixed."}],
                 {"input_tokens": 4, "cache_creation_input_tokens": 60, "cache_read_input_tokens": 2010,
                  "output_tokens": 5}),
        claude_code_line("system", "b1", None, "2025-03-14T09:30:00Z", subtype="compact_boundary",
                         logicalParentUuid="a2", compactMetadata={"trigger": "manual", "preTokens": 2074}),
        claude_code_line("user", "s1", "b1", "2025-03-14T09:30:01Z", isCompactSummary=True,
                         message={"role": "user", "content": "Summary: f now returns 1."}),
        response("a3", "s1", "2025-03-14T09:30:04Z", "msg_3", [{"type": "text", "text": "Anything else?"}],
                 {"input_tokens": 3, "cache_creation_input_tokens": 40, "cache_read_input_tokens": 1500,
                  "output_tokens": 4}),
    ]
    (tmp_path / "projects" / "-home-dev-app").mkdir(parents=True)
    row = row_of(tmp_path / "projects" / "-home-dev-app", "sess-1.jsonl", "\n".join(lines) + "\n")
    assert row["error"] is None and row["format"] == "claude-code"
    assert (row["project"], row["session"]) == ("-home-dev-app", "sess-1")
    assert (row["messages"], row["model_calls"]) == (6, 3)
    assert (row["first_time"], row["last_time"]) == ("2025-03-14T09:00:00Z", "2025-03-14T09:30:04Z")
    assert row["recorded_tokens"] == 2010 + 2074 + 1543 and row["recorded_peak_tokens"] == 2074
    assert row["log_compactions"] == 1
    assert row["input_pair_problems"] == 0 == row["calls_with_pair_problems"]
