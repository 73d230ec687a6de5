"""Pi's session file, read from the hand-written case (cases/valid/pi_session.jsonl, written from the layout
of real sessions: badlogic/pi-mono's own test fixtures and docs/session.md): the branch Pi is at, one call
per assistant message with its usage and Pi's own cost, its compaction entry; its preset and settings.json."""

import json
from pathlib import Path

from compaction import replay
from compaction.agents import agent_of
from compaction.corpus import Job, discover, session_row
from compaction.export import export
from compaction.importers import load_conversation
from compaction.strategies import build

CASE = Path(__file__).parent / "cases" / "valid" / "pi_session.jsonl"


def plain_counts(path: Path, on_path: set[str] | None = None) -> dict:
    """Read plainly, sharing nothing with the reader: assistant message lines (of the ids `on_path` when
    given) as calls, their usage and cost.total summed, compaction lines."""
    calls = compactions = 0
    tokens = {"input": 0, "cacheWrite": 0, "cacheRead": 0, "output": 0}
    cost = 0.0
    for raw in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(raw)
        if on_path is not None and entry.get("id") not in on_path:
            continue
        if entry.get("type") == "compaction":
            compactions += 1
        message = entry.get("message") or {}
        if entry.get("type") == "message" and message.get("role") == "assistant":
            calls += 1
            usage = message.get("usage") or {}
            for key in tokens:
                tokens[key] += usage.get(key) or 0
            cost += (usage.get("cost") or {}).get("total") or 0
    return {"calls": calls, "compactions": compactions, **tokens, "cost": round(cost, 6)}


def loaded_counts(conversation) -> dict:
    usage = [u for u in conversation.usage if u]
    return {"calls": sum(m["role"] == "assistant" for m in conversation.messages),
            "compactions": len(conversation.metadata["compact_boundaries"]),
            "input": sum(u["input_tokens"] for u in usage), "cacheWrite": sum(u["cache_creation_input_tokens"] for u in usage),
            "cacheRead": sum(u["cache_read_input_tokens"] for u in usage), "output": sum(u["output_tokens"] for u in usage),
            "cost": round(sum(u.get("cost_usd", 0) for u in usage), 6)}


def test_a_session_loads_as_pi():
    conversation = load_conversation(CASE)
    assert conversation.format == "pi" and agent_of("pi").title == "Pi"
    assert conversation.metadata["models"] == ["claude-sonnet-4-5"] and conversation.metadata["cwd"] == "/home/ana/shop"


def test_the_branch_pi_is_at_equals_a_plain_count_with_pis_exact_cost():
    conversation = load_conversation(CASE)
    branch = {"a1", "a2", "a3", "a4", "a5", "a6", "c1", "c2", "c3", "c4", "c5", "c6"}  # b1, b2 were left
    assert loaded_counts(conversation) == plain_counts(CASE, branch) == {
        "calls": 4, "compactions": 1, "input": 10, "cacheWrite": 10_060, "cacheRead": 11_200, "output": 112,
        "cost": 0.042795}
    assert conversation.metadata["off_branch"] == {"entries": 2, "calls": 1, "cost_usd": 0.003092}
    assert conversation.metadata["calls_without_usage"] == 1  # the aborted call
    assert conversation.usage[3]["cost_usd"] == 0.003261


def test_the_compaction_entry_is_found_with_its_first_kept_message():
    conversation = load_conversation(CASE)
    [boundary] = conversation.metadata["compact_boundaries"]
    assert (boundary["index"], boundary["pre_tokens"], boundary["first_kept_index"]) == (4, 184_200, 3)
    assert conversation.messages[4]["content"][0]["text"].startswith(
        "The conversation history before this point was compacted into the following summary:\n\n<summary>\n## Goal")
    assert conversation.messages[6]["content"][0]["text"] == "Ran `pytest -q`\n```\n1 failed\n```\n\nCommand exited with code 1"


def test_the_preset_named_after_the_agent_runs_and_keeps_recent_tokens():
    conversation = load_conversation(CASE)
    ran = replay(conversation, strategy="pi")
    assert ran.strategy == "pi" and len(ran.calls) == 4
    small = replay(conversation, strategy=build("pi", {"window_tokens": 30, "reserve_tokens": 10,
                                                       "keep_recent_tokens": 20}))
    assert any(event.layer == "auto_compact" for call in small.calls for event in call.events)


def test_the_export_form_is_pis_settings_block():
    assert json.loads(export("pi", form="pi").text) == {
        "compaction": {"enabled": True, "reserveTokens": 16_384, "keepRecentTokens": 20_000}}
    tuned = export("pi", {"reserve_tokens": 40_000, "keep_recent_tokens": 10_000}, form="pi")
    assert json.loads(tuned.text)["compaction"] == {"enabled": True, "reserveTokens": 40_000, "keepRecentTokens": 10_000}


def test_a_version_1_file_and_an_interrupted_call_read_as_pi_sends_them():
    path = CASE.with_name("pi_version_1_session.jsonl")
    conversation = load_conversation(path)
    assert conversation.format == "pi" and loaded_counts(conversation) == plain_counts(path)
    # the person interrupted the second read: Pi sends an error result for it, beside the person's words
    results = conversation.messages[2]["content"]
    assert [block.get("tool_use_id") for block in results] == ["toolu_A", "toolu_B", None]
    assert results[1]["is_error"] is True and results[1]["content"] == [{"type": "text", "text": "No result provided"}]
    # firstKeptEntryIndex counts the header line: entry 5 is the answer about cart.py
    [boundary] = conversation.metadata["compact_boundaries"]
    assert (boundary["index"], boundary["first_kept_index"], boundary["pre_tokens"]) == (4, 3, 175_004)
    assert conversation.metadata["models"] == ["claude-opus-4-5"] and conversation.warnings == []


def test_a_home_folder_finds_the_session_under_its_working_directory(tmp_path):
    folder = tmp_path / ".pi" / "agent" / "sessions" / "--home-ana-shop--"
    folder.mkdir(parents=True)
    (folder / "2026-05-04T10-00-00-000Z_7b2f0c1e-4d5a-4e6f-8a9b-0c1d2e3f4a5b.jsonl").write_bytes(CASE.read_bytes())
    [found] = discover(tmp_path / ".pi")
    assert found.project == "-home-ana-shop"
    assert session_row(found, Job())["project"] == "-home-ana-shop"
