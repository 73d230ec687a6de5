"""The Claude Code preset where the log compacts several times in a row (what it kept was still over the
threshold), where a session starts over the threshold, and where the session's first call carried far more
than its prompt: the preset compacts where the log did and carries on with what the log shows it carried."""

from compaction.agents.claude_code.compacting import IN_A_ROW
from compaction.importers import load_conversation
from compaction.model.calibration import recorded_context
from compaction.replay.fidelity import fidelity
from compaction.replay.loop import replay

from .claude_code_lines import LogLines

SUMMARY = "Summary:\n1. Primary Request and Intent: tidy the settings. " + "s" * 6_000


def _thrash(tmp_path):
    """2.1.101, its tools alone 168,900 tokens (over the 167,000 threshold): Claude Code compacts after each
    call until the tools shrink (a tool search), then the session grows to one more compaction."""
    log = LogLines("2.1.101", model="claude-haiku-4-5-20251001")
    log.prompt("Repair the settings.")
    log.call(168_900, "Bash", {"command": "ls"}, "x" * 300)
    for carried in (167_185, 167_796, 168_020):  # each first call after is over the threshold again
        log.compaction(carried + 6_000, SUMMARY)
        log.call(carried, "Bash", {"command": "ls -a"}, "y" * 300)
    log.compaction(175_000, SUMMARY)
    context = 42_000  # the tools deferred: what it kept is under the threshold at last
    while context < 167_000:
        log.call(context, "Read", {"file_path": f"/app/f{context}.py"}, "r" * 40_000)
        context += 12_000
    log.compaction(context, SUMMARY)
    log.call(45_000, "Bash", {"command": "make"}, "b" * 400)
    log.answer(46_000)
    return load_conversation(log.write(tmp_path))


def test_a_thrash_is_replayed_call_for_call_with_what_the_log_carried(tmp_path):
    conversation = _thrash(tmp_path)
    result = replay(conversation, strategy="claude-code")
    found = fidelity(result)
    assert [p.calls_apart for p in found.pairs[:4]] == [0, 0, 0, 0]  # after each call, not before the first
    for pair in found.pairs[:4]:
        assert pair.strategy_after_tokens == pair.log_after_tokens  # what the log shows it carried
    compacted = [e for c in result.calls for e in c.events if getattr(e, "layer", "") == "auto_compact"]
    assert IN_A_ROW in compacted[0].reason
    # the later compaction comes where the session's own growth takes it, not at the next call
    assert found.pairs[4].calls_apart is not None and abs(found.pairs[4].calls_apart) <= 3


def test_a_session_starting_over_the_threshold_compacts_after_its_first_call(tmp_path):
    log = LogLines("2.1.92")
    log.prompt("Carry on.")
    log.call(171_000, "Read", {"file_path": "/app/a.py"}, "a" * 3_000)
    log.compaction(171_500, SUMMARY)
    for context in (40_000, 41_500, 43_000):
        log.call(context, "Bash", {"command": "make"}, "b" * 3_000)
    conversation = load_conversation(log.write(tmp_path))
    result = replay(conversation, strategy="claude-code")
    assert "auto_compact" not in result.calls[0].acted  # no usage yet: Claude Code counts the messages only
    [pair] = fidelity(result).pairs
    assert pair.calls_apart == 0 and pair.strategy_after_tokens == pair.log_after_tokens


def test_the_base_is_no_larger_than_the_log_first_call_after_shows(tmp_path):
    """A resumed session whose first call carried 150,000 tokens for a short prompt: measured from that call,
    the system prompt and tools would leave the compaction over its own threshold."""
    log = LogLines("2.0.1")
    log.prompt("Go on with the migration.")
    context = 150_000
    while context < 155_000:
        log.call(context, "Read", {"file_path": f"/app/m{context}.sql"}, "m" * 8_000)
        context += 2_000
    log.compaction(context, SUMMARY)
    for after in (52_000, 54_000, 56_000):
        log.call(after, "Bash", {"command": "make"}, "b" * 3_000)
    conversation = load_conversation(log.write(tmp_path))
    result = replay(conversation, strategy="claude-code")
    [pair] = fidelity(result).pairs
    first_after = next(c for c in result.calls if c.call == pair.strategy_call)
    assert pair.calls_apart == 0
    assert first_after.tokens <= recorded_context(conversation.usage[first_after.index])
    compacted = [e for e in first_after.events if getattr(e, "layer", "") == "auto_compact"]
    assert "the log's first call after its own compaction carried" in compacted[0].reason
