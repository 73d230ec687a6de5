"""GitHub Copilot CLI's events.jsonl, read from the hand-written case (cases/valid/copilot_cli_events.jsonl,
written from the layout of real session logs and --output-format json runs): one call per
assistant.message without usage, the shutdown's model metrics as the session's totals, the compaction
events with their checkpoint summaries; its preset and its export form."""

import json
from pathlib import Path

from compaction import replay
from compaction.agents import agent_of
from compaction.corpus import Job, discover, session_row
from compaction.export import export
from compaction.importers import load_conversation
from compaction.importers.formats import find
from compaction.measures.cost import Prices
from compaction.measures.run_totals import totals_cost
from compaction.model.conversation import RECORDED_TOTALS
from compaction.strategies import build

CASE = Path(__file__).parent / "cases" / "valid" / "copilot_cli_events.jsonl"


def plain_counts(path: Path) -> dict:
    """Read plainly, sharing nothing with the reader: the events written to the log (not `ephemeral`),
    assistant.message events as calls, successful compaction_complete events, and the shutdowns' model
    metrics summed (input less the cache's reads and writes)."""
    calls = compactions = requests = 0
    tokens = {"plain": 0, "read": 0, "written": 0, "output": 0}
    for raw in path.read_text(encoding="utf-8").splitlines():
        try:
            event = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(event, dict) or event.get("ephemeral") is True:
            continue
        data = event.get("data") if isinstance(event.get("data"), dict) else {}
        if event.get("type") == "assistant.message":
            calls += 1
        elif event.get("type") == "session.compaction_complete" and data.get("success") is not False:
            compactions += 1
        elif event.get("type") == "session.shutdown":
            for metrics in (data.get("modelMetrics") or {}).values():
                usage = metrics.get("usage") or {}
                read, written = usage.get("cacheReadTokens", 0), usage.get("cacheWriteTokens", 0)
                tokens["plain"] += max(usage.get("inputTokens", 0) - read - written, 0)
                tokens["read"] += read
                tokens["written"] += written
                tokens["output"] += usage.get("outputTokens", 0)
                requests += (metrics.get("requests") or {}).get("count", 0)
    return {"calls": calls, "compactions": compactions, "requests": requests, **tokens}


def loaded_counts(conversation) -> dict:
    totals = conversation.metadata.get(RECORDED_TOTALS) or {}
    return {"calls": sum(m["role"] == "assistant" for m in conversation.messages),
            "compactions": len(conversation.metadata["compact_boundaries"]), "requests": totals.get("calls", 0),
            "plain": totals.get("input_tokens", 0), "read": totals.get("cache_read_input_tokens", 0),
            "written": totals.get("cache_creation_input_tokens", 0), "output": totals.get("output_tokens", 0)}


def test_an_events_log_loads_as_copilot_cli_and_not_as_another_agent():
    conversation = load_conversation(CASE)
    assert conversation.format == "copilot-cli" and agent_of("copilot-cli").title == "Copilot CLI"
    assert find("copilot").name == "copilot-cli"
    assert conversation.metadata["agent_version"] == "1.0.48"
    # named as the lab's price and window tables spell them, the log's names beside
    assert conversation.metadata["models"] == ["claude-sonnet-4-5", "gpt-5.1"]
    assert conversation.metadata["copilot_models"] == ["claude-sonnet-4.5", "gpt-5.1"]
    assert set(conversation.metadata[RECORDED_TOTALS]["by_model"]) == {"claude-sonnet-4-5", "gpt-5.1"}


def test_calls_compactions_and_totals_equal_a_plain_count_of_the_file():
    conversation = load_conversation(CASE)
    assert loaded_counts(conversation) == plain_counts(CASE) == {
        "calls": 3, "compactions": 1, "requests": 3, "plain": 40_000, "read": 120_000, "written": 10_000,
        "output": 489}
    assert conversation.usage == []  # no usage per call: the calls are estimated
    assert any(w.kind == "no_usage" for w in conversation.warnings)
    assert conversation.metadata["premium_requests"] == 3


def test_the_compaction_is_found_at_its_checkpoint_summary():
    conversation = load_conversation(CASE)
    [boundary] = conversation.metadata["compact_boundaries"]
    assert (boundary["index"], boundary["trigger"], boundary["pre_tokens"]) == (4, "threshold", 136_920)
    assert conversation.messages[4]["content"].startswith("<overview>")
    assert conversation.metadata["compact_summary_indices"] == [4]


def test_a_tool_run_of_a_redacted_request_is_kept_with_its_failed_result():
    conversation = load_conversation(CASE)
    response, results = conversation.messages[6], conversation.messages[7]
    assert response["content"][-1]["id"] == "call_7"
    assert results["content"][0] == {"type": "tool_result", "tool_use_id": "call_7",
                                     "content": "old_str not found in cart.py", "is_error": True}


def test_the_preset_named_after_the_agent_runs_on_it_and_compacts_at_its_share():
    conversation = load_conversation(CASE)
    ran = replay(conversation, strategy="copilot-cli")
    assert ran.strategy == "copilot-cli" and len(ran.calls) == 3
    assert not any(call.events for call in ran.calls)  # a few hundred tokens: far from 95 % of 200,000
    small = replay(conversation, strategy=build("copilot-cli", {"window_tokens": 120}))
    assert any(event.layer == "auto_compact" for call in small.calls for event in call.events)


def test_the_export_form_says_the_share_cannot_be_set():
    default = export("copilot-cli", form="copilot-cli")
    assert "no variable to set" in default.text and any("Cannot be set" in note for note in default.notes)
    tuned = export("copilot-cli", {"window_tokens": 128_000, "threshold_fraction": 0.8}, form="copilot-cli")
    assert "export COPILOT_PROVIDER_MAX_PROMPT_TOKENS=128000" in tuned.text
    assert "80%" in tuned.text and any("/compact" in note for note in tuned.notes)


def test_a_home_folder_finds_the_session_and_its_project_is_its_working_directory(tmp_path):
    folder = tmp_path / ".copilot" / "session-state" / "5c1e0b7a-2f4d-4c43-9d0e-7a8b1c2d3e4f"
    folder.mkdir(parents=True)
    (folder / "events.jsonl").write_bytes(CASE.read_bytes())
    [found] = discover(tmp_path / ".copilot")
    assert found.relative == "session-state/5c1e0b7a-2f4d-4c43-9d0e-7a8b1c2d3e4f/events.jsonl"
    assert session_row(found, Job())["project"] == "-home-ana-shop"


def test_json_output_skips_the_streamed_events_and_keeps_the_runs_premium_requests():
    path = CASE.with_name("copilot_cli_json_output.jsonl")
    conversation = load_conversation(path)
    assert conversation.format == "copilot-cli" and loaded_counts(conversation) == plain_counts(path)
    assert [m["role"] for m in conversation.messages] == ["user", "assistant", "user", "assistant"]
    assert conversation.metadata["counts"]["ephemeral_events"] == 5
    assert conversation.metadata["premium_requests"] == 1 and RECORDED_TOTALS not in conversation.metadata


def test_the_totals_are_priced_per_model_at_the_tables_rows():
    ran = replay(load_conversation(CASE), strategy="copilot-cli")
    priced = totals_cost(ran.recorded_totals, Prices())
    # Sonnet 4.5: 20,000 x $3 + 10,000 written x $3.75 + 120,000 read x $0.30 + 89 out x $15 per million;
    # GPT-5.1: 20,000 x $1.25 + 400 out x $10 per million
    assert priced is not None and round(priced.usd, 6) == 0.163835 and "claude-sonnet-4-5, gpt-5.1" in priced.basis
