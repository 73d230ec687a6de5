"""The Claude Code preset does, layer by layer, what the log's version did, on logs in the public layout
(claude_code_lines.py): outputs saved to a file only from 2.1.2, at the limits the logs' markers show; old
results cleared where the log shows the agent cleared them; the window the log shows. Before its first
compaction it never removes what the agent kept."""

import pytest

from compaction.agents.claude_code.clearing import dropped_calls
from compaction.agents.claude_code.preset import log_window
from compaction.agents.claude_code.rules import persist_limits
from compaction.importers import load_conversation
from compaction.model.calibration import recorded_context
from compaction.model.history import prepare
from compaction.replay.loop import replay
from compaction.strategies import build

from .claude_code_lines import LogLines


def _kept_output(tmp_path, version: str, tool: str, chars: int):
    log = LogLines(version)
    log.prompt("Refactor the models.")
    log.call(21_000, "Read", {"file_path": "/app/models.py"}, "x" * 800)
    log.call(22_000, tool, {"command": "run"} if tool == "Bash" else {"file_path": "/app/models.py"}, "o" * chars)
    log.answer(22_500 + chars // 4)  # the context grew by the whole output: the agent kept it
    return load_conversation(log.write(tmp_path))


@pytest.mark.parametrize(("version", "tool", "chars", "saved"), [
    ("2.0.76", "Edit", 47_619, False),  # 2.0.76 logs keep Edit results of 30,048-63,191 characters whole
    ("2.0.76", "Bash", 30_030, False),  # cut by the tool itself at 30,000
    ("2.0.74", "mcp__playwright__browser_navigate", 67_043, False),
    ("1.0.89", "LS", 33_180, False),
    ("2.1.7", "Bash", 31_744, True),  # the smallest Bash marker in the logs
    ("2.1.19", "Grep", 21_708, True),  # Grep's own limit, 20,000
    ("2.1.41", "mcp__db__query", 60_000, False),  # others over 100,000 until 2.1.50
    ("2.1.63", "mcp__db__query", 60_000, True),  # over 50,000 from 2.1.51
    ("2.1.143", "Edit", 119_474, False),  # an editing tool's result is sent whole
])
def test_outputs_go_to_a_file_as_the_version_did(tmp_path, version, tool, chars, saved):
    conversation = _kept_output(tmp_path, version, tool, chars)
    result = replay(conversation, strategy="claude-code")
    assert ("persist" in result.calls[2].acted) is saved
    if not saved:  # what the agent kept is sent whole: every call's tokens are the recorded ones
        assert all(call.exact and call.tokens == recorded_context(conversation.usage[call.index])
                   for call in result.calls)
    assert build("claude-code", {"persist_threshold": 30_000}) is not None  # the old fixed rule stays a choice


def test_a_2_0_76_log_keeps_outputs_over_30000_characters_as_its_context_shows(tmp_path):
    # the log: its recorded context kept growing over the outputs (52,751, 58,607, 64,543 tokens)
    log = LogLines("2.0.76")
    log.prompt("Port the parser.")
    log.call(47_000, "Read", {"file_path": "/app/parser.py"}, "r" * 2_000)
    for context in (52_751, 58_607, 64_543):
        log.call(context, "Edit", {"file_path": "/app/parser.py", "old_string": "a", "new_string": "b"}, "e" * 31_000)
    log.answer(70_400)
    conversation = load_conversation(log.write(tmp_path))
    result = replay(conversation, strategy="claude-code")
    assert [c.tokens for c in result.calls] == [47_000, 52_751, 58_607, 64_543, 70_400]
    assert not any(c.acted for c in result.calls) and all(c.exact for c in result.calls)
    assert persist_limits("2.0.76") is None and persist_limits("2.1.2") == {"": 100_000, "Bash": 30_000,
                                                                          "PowerShell": 30_000, "Grep": 20_000}
    assert persist_limits("2.1.51")[""] == persist_limits(None)[""] == 50_000


def test_a_screenshot_is_not_an_output_saved_to_a_file(tmp_path):
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "A" * 120_000}}
    messages = [{"role": "user", "content": "look"},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "s1", "name": "mcp__chrome__screenshot",
                                                   "input": {}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "s1",
                                              "content": [{"type": "text", "text": "Took a screenshot"}, image]}]}]
    assert build("claude-code", {})(prepare(messages), None).acted == ()


def _session_with_a_drop(tmp_path, version="2.0.76"):
    """A session that compacts (boundary after 156k), grows again with Read results of 20,000 characters and
    then drops by 30,000 tokens with no compaction: Claude Code cleared its old results there."""
    log = LogLines(version)
    log.prompt("Audit the services.")
    context = 40_000
    while context < 156_000:
        log.call(context, "Read", {"file_path": f"/app/s{context}.py"}, "s" * 20_000)
        context += 6_000
    log.compaction(context, "Summary: the services were read.")
    context = 40_000
    for n in range(8):
        log.call(context, "Read", {"file_path": f"/app/t{n}.py"}, "t" * 20_000)
        context += 6_000
    log.call(context - 30_000, "Read", {"file_path": "/app/last.py"}, "l" * 2_000)  # the drop
    log.answer(context - 29_000)
    return load_conversation(log.write(tmp_path))


def test_old_results_are_cleared_where_the_log_shows_the_agent_cleared_them(tmp_path):
    conversation = _session_with_a_drop(tmp_path)
    prepared = prepare(conversation)
    drop = max(dropped_calls(prepared, 20_000))
    assert dropped_calls(prepared, 20_000) == {drop}  # not the compaction: that has its boundary
    result = replay(prepared, strategy="claude-code")
    acted = {c.index: c.acted for c in result.calls if c.acted}
    assert "auto_compact" in acted[conversation.metadata["compact_boundaries"][0]["index"] + 1]
    assert acted[drop] == ("microcompact",)  # all but the newest 3 Read results since the compaction
    cleared = [e for c in result.calls if c.index == drop for e in c.events]
    assert len(cleared) == 8 - 3 and {e.tool for e in cleared} == {"Read"}  # the 8 Reads before the drop
    never = replay(prepared, strategy=build("claude-code", {"warning_microcompact": "off"}))
    assert not any("microcompact" in c.acted for c in never.calls)


def test_before_the_histories_part_the_log_s_own_counts_hold_the_drop(tmp_path):
    log = LogLines("2.0.76")
    log.prompt("Audit the services.")
    for n, context in enumerate((40_000, 70_000, 100_000, 130_000, 140_000)):
        log.call(context, "Read", {"file_path": f"/app/s{n}.py"}, "s" * 100_000)
    log.answer(118_000)  # the agent cleared: 22,000 tokens fewer
    conversation = load_conversation(log.write(tmp_path))
    result = replay(conversation, strategy="claude-code")
    assert not any(c.acted for c in result.calls)  # nothing removed: the recorded tokens show the drop
    assert [c.tokens for c in result.calls] == [40_000, 70_000, 100_000, 130_000, 140_000, 118_000]
    rule = replay(conversation, strategy=build("claude-code", {"warning_microcompact": "on"}))
    # 2.0.76's own rule: over 135,000, the oldest of 4 results (25,000 tokens as characters / 4) cleared
    assert rule.calls[4].acted == ("microcompact",) and len(rule.calls[4].events) == 1


def test_the_window_is_the_one_the_log_shows(tmp_path):
    log = LogLines("2.1.223", model="claude-opus-5")
    log.prompt("Go on.")
    for n, context in enumerate((150_000, 180_000, 240_000, 260_000)):
        log.call(context, "Bash", {"command": f"make {n}"}, "b" * 1_000)
    log.answer(262_000)
    conversation = load_conversation(log.write(tmp_path))
    assert log_window(prepare(conversation)) == 1_000_000
    result = replay(conversation, strategy="claude-code", model_window_tokens=1_000_000)
    assert not any(c.acted for c in result.calls)  # a 1M model: no compaction below 967,000
    assert any(c.acted for c in replay(conversation, strategy=build("claude-code", {"window_tokens": 200_000}),
                                       model_window_tokens=1_000_000).calls)
