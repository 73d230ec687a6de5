"""The Claude Code preset's defaults against what real logs show, on two short hand-written logs.

claude_code_logs/ holds two logs written by hand in the layout of the public ones (FINDINGS.md 1.1-1.2:
one line per content block repeating message.usage, tool results as user lines with toolUseResult, a
system compact_boundary line with compactMetadata, then the isCompactSummary line). Their usage is the
real figures of the calls around a boundary of two public logs:
- auto_compact_2_0_53.jsonl, Claude Code 2.0.53, Opus 4.5: five calls recording 150,482, 152,322,
  152,924, 154,340 and 154,920 tokens, the boundary (preTokens 155,040), then 33,256 and 35,698;
- auto_compact_2_1_41.jsonl, Claude Code 2.1.41, Sonnet 4.5: 157,375, 158,666, 161,369, 163,610,
  164,083, the boundary (preTokens 167,828), then 51,390 and 52,466.
The messages between the calls were sized so that each call's recorded growth is 0.4 tokens per
character of what was added (within the 0.24-0.40 public logs calibrate to): the calibrated token model
then estimates each call within a token of what it recorded, and the rest of each session (before the
excerpt) is in the calibration's overhead (150,442 and 157,343 tokens), as for a file whose start is
missing. So the estimate barely matters: the recorded figures decide where the preset compacts.
"""

import dataclasses
from pathlib import Path

import pytest

from compaction.agents.claude_code.preset import auto_compact_threshold, output_reserve_for, parse_version
from compaction.importers import load_conversation
from compaction.model.calibration import recorded_context
from compaction.model.history import History, Recorded, prepare
from compaction.replay.loop import replay
from compaction.strategies import build

LOGS = Path(__file__).parent / "claude_code_logs"


@dataclasses.dataclass(frozen=True)
class _RecordedWithVersion(Recorded):
    agent_version: str | None = None


def with_log_version(conversation) -> History:
    """The conversation prepared, its log's version passed on as the replay will pass it
    (history.recorded.agent_version); a no-op once the replay does so itself."""
    prepared = prepare(conversation)
    if getattr(prepared.recorded, "agent_version", None) is not None:
        return prepared
    recorded = prepared.recorded
    version = conversation.metadata.get("agent_version")
    return dataclasses.replace(prepared, recorded=_RecordedWithVersion(
        usage=recorded.usage, timestamps=recorded.timestamps, boundaries=recorded.boundaries, agent_version=version))


@pytest.mark.parametrize(("version", "threshold"), [
    ("1.0.81", 155_000),  # 1.0.x logs compacted after calls of 153-171k: the earliest rule
    ("2.0.53", 155_000),  # 200,000 - 32,000 - 13,000
    ("2.0.76", 155_000),
    ("2.1.7", 155_000),  # 6 of the 8 2.1.7 compactions of the public logs; the change came with 2.1.21
    ("2.1.20", 155_000),
    ("2.1.21", 167_000),  # 200,000 - 20,000 - 13,000
    ("2.1.41", 167_000),
    ("2.1.146", 167_000),
    (None, 167_000),  # a log without a version: the newest rule
    ("not a version", 167_000),
])
def test_the_threshold_by_version(version, threshold):
    assert auto_compact_threshold(version) == auto_compact_threshold(version, 200_000) == threshold


def test_the_threshold_follows_the_window_and_versions_parse():
    assert auto_compact_threshold("2.1.41", 1_000_000) == 967_000
    assert auto_compact_threshold("2.0.76", 100_000) == 55_000
    assert (parse_version("2.1.41"), parse_version("v2.0.76-beta"), parse_version("2.1")) == ((2, 1, 41), (2, 0, 76),
                                                                                              None)
    assert (output_reserve_for("2.1.20"), output_reserve_for("2.1.21")) == (32_000, 20_000)


def _case(name: str):
    conversation = load_conversation(LOGS / name)
    return conversation, with_log_version(conversation)


def _first_compaction(result) -> int | None:
    return next((record.call for record in result.calls if "auto_compact" in record.acted), None)


@pytest.mark.parametrize(("name", "version", "threshold", "before", "pre_tokens"), [
    ("auto_compact_2_0_53.jsonl", "2.0.53", 155_000, 154_920, 155_040),
    ("auto_compact_2_1_41.jsonl", "2.1.41", 167_000, 164_083, 167_828),
])
def test_the_preset_compacts_where_the_log_did(name, version, threshold, before, pre_tokens):
    conversation, prepared = _case(name)
    assert conversation.metadata["agent_version"] == version
    [boundary] = conversation.metadata["compact_boundaries"]
    assert boundary["trigger"] == "auto" and boundary["pre_tokens"] == pre_tokens
    # the call before the boundary recorded less than the version's threshold, preTokens is over it
    calls = [usage for usage in conversation.usage if usage]
    assert recorded_context(calls[4]) == before < threshold <= pre_tokens
    result = replay(prepared, strategy="claude-code")
    [log_boundary] = result.boundaries
    assert log_boundary["call"] == 5  # the first call after the boundary, the 6th of the log
    # the calibrated estimate of the call before is within a token of its record (154,921 / 164,083); the
    # next request adds that call's response, its results and the summary line: 155,757 / 167,508, over the
    # threshold. After the summary the request is the overhead and the summary, under it again
    assert abs(result.calls[4].raw_tokens - before) <= 1
    assert result.calls[5].raw_tokens >= threshold > result.calls[5].tokens
    assert abs(_first_compaction(result) - log_boundary["call"]) <= 3
    assert _first_compaction(result) == log_boundary["call"]


def test_the_other_versions_rule_would_compact_elsewhere():
    # 2.0.53's log never reaches 167,000 (its largest estimate is about 156,000); 2.1.41's log is over
    # 155,000 from its first call (157,375), so the 2.0.x rule compacts as soon as a response's usage says
    # so: after the first call (before it Claude Code counts the messages alone)
    _, old = _case("auto_compact_2_0_53.jsonl")
    _, new = _case("auto_compact_2_1_41.jsonl")
    assert _first_compaction(replay(old, strategy=build("claude-code", {"version": "2.1.41"}))) is None
    assert _first_compaction(replay(new, strategy=build("claude-code", {"version": "2.0.76"}))) == 1


def test_a_conversation_replayed_as_loaded_uses_the_newest_rule_until_the_replay_passes_its_version():
    conversation = load_conversation(LOGS / "auto_compact_2_1_41.jsonl")
    assert _first_compaction(replay(conversation, strategy="claude-code")) == 5  # 2.1.x: the newest rule anyway


def test_the_default_clears_no_tool_results():
    _, prepared = _case("auto_compact_2_1_41.jsonl")
    result = replay(prepared, strategy="claude-code")
    assert not any("microcompact" in record.acted for record in result.calls)


def _session_with_a_pause(pause_minutes: int):
    """Eight Read turns a minute apart, then the next call `pause_minutes` after the last response."""
    from compaction.model.conversation import Conversation

    from .builders import call, results, user

    messages, times = [user("read them all")], ["2026-03-01T10:00:00Z"]
    for n in range(8):
        messages += [call(f"r{n}", name="Read"), results((f"r{n}", f"contents of file {n}"))]
        times += [f"2026-03-01T10:{n + 1:02d}:00Z", f"2026-03-01T10:{n + 1:02d}:30Z"]
    resumed = 8 + pause_minutes  # minutes after 10:00 of the next call; the last response was at 10:08
    messages.append(call("r8", name="Read"))
    times.append(f"2026-03-01T{10 + resumed // 60:02d}:{resumed % 60:02d}:00Z")
    return prepare(Conversation(messages, timestamps=times))


def test_the_idle_clearing_acts_after_the_gap_and_keeps_the_newest_five():
    from compaction.agents.claude_code.markers import CLEARED as CLAUDE_CODE_CLEARED
    from compaction.model.settings import Settings

    strategy = build("claude-code", {"idle_microcompact": True})  # 60 minutes, keep 5
    history = _session_with_a_pause(61)
    before_call = history.derive(history.messages[:-1], history.sizes[:-1], history.origins[:-1])
    step = strategy(before_call, Settings())
    outputs = [m["content"][0]["content"] for m in step.history.messages[2::2]]
    assert outputs == [CLAUDE_CODE_CLEARED] * 3 + [f"contents of file {n}" for n in range(3, 8)]
    assert step.acted == ("microcompact",)
    short = _session_with_a_pause(59)
    assert strategy(short.derive(short.messages[:-1], short.sizes[:-1], short.origins[:-1]), Settings()).acted == ()
    assert build("claude-code", {})(before_call, Settings()).acted == ()  # off by default
