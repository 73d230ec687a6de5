"""Claude Code: outputs over 30,000 characters persisted with a 2,000-character preview, microcompact
of old tool results (off by default, by count or after an idle gap), auto-compact at window - output
reserve - buffer. The defaults' evidence from real logs: test_claude_code_preset.py."""

from compaction import OutputStore, Settings, check_pairs, prepare
from compaction.agents.claude_code.markers import CLEARED as CLAUDE_CODE_CLEARED
from compaction.agents.claude_code.markers import SUMMARY_PREFIX as CLAUDE_CODE_SUMMARY_PREFIX
from compaction.replay.loop import replay
from compaction.strategies import build

from .builders import call, results, turns, user


def test_an_output_over_30000_characters_goes_to_a_file_with_a_2000_character_preview(tmp_path):
    big, limit = "b" * 30_001, "l" * 30_000
    messages = [user("dump it"), call("t0", "t1", name="Bash"), results(("t0", big), ("t1", limit))]
    step = build("claude-code", {})(prepare(messages), Settings(), OutputStore(tmp_path))
    kept = step.history.messages[2]["content"]
    assert kept[1] is messages[2]["content"][1]  # exactly 30,000 is not over
    marker = kept[0]["content"]
    assert marker.startswith("<persisted-output>\nFull output: ") and "b" * 2_000 + "\n</persisted-output>" in marker
    assert "b" * 2_001 not in marker
    saved = next((tmp_path / "tool-results").glob("*.txt"))
    assert saved.read_text() == big
    assert step.acted == ("persist",)


def test_reads_and_subagent_reports_are_sent_whole_however_long(tmp_path):
    # the public logs hold 33 Read, Task and TaskOutput results over 30,000 characters, none saved to a file
    big = "r" * 40_000
    messages = [user("read it"), call("t0", name="Read"), call("t1", name="Bash"), results(("t0", big), ("t1", big))]
    messages = [messages[0], {"role": "assistant", "content": messages[1]["content"] + messages[2]["content"]},
                messages[3]]
    step = build("claude-code", {})(prepare(messages), Settings(), OutputStore(tmp_path))
    kept = step.history.messages[2]["content"]
    assert kept[0] is messages[2]["content"][0]  # the Read result, whole
    assert kept[1]["content"].startswith("<persisted-output>")
    assert [e.tool for e in step.events] == ["Bash"]
    assert build("claude-code", {"persist_exempt_tools": []})(prepare(messages), Settings(),
                                                              OutputStore(tmp_path)).acted == ("persist",)


def read_turns(count, tool="Read", start=0):
    messages = []
    for n in range(start, start + count):
        messages += [call(f"r{n}", name=tool), results((f"r{n}", f"contents of file {n}"))]
    return messages


BY_COUNT = {"microcompact": True}  # off by default: the logs show no clearing by count


def test_microcompact_clears_all_but_the_newest_5_once_more_than_12_results_are_whole():
    twelve = [user("read everything"), *read_turns(12), call("w0", name="TodoWrite"), results(("w0", "noted"))]
    assert build("claude-code", BY_COUNT)(prepare(twelve), Settings()).acted == ()
    thirteen = twelve + read_turns(1, start=12)
    step = build("claude-code", BY_COUNT)(prepare(thirteen), Settings())
    outputs = [m["content"][0]["content"] for m in step.history.messages[2::2]]
    # Reads 0-7 cleared, the TodoWrite result untouched (not a compactable tool), Reads 8-12 whole
    assert outputs == [CLAUDE_CODE_CLEARED] * 8 + [f"contents of file {n}" for n in range(8, 12)] + \
        ["noted", "contents of file 12"]
    assert step.acted == ("microcompact",) and [e.index for e in step.events] == [2 * n + 2 for n in range(8)]
    again = build("claude-code", BY_COUNT)(step.history, Settings())
    assert again.history is step.history  # 5 whole results left: nothing more to clear
    assert build("claude-code", {})(prepare(thirteen), Settings()).acted == ()  # the default leaves them


def test_microcompact_counts_other_agents_reading_tools_as_claude_codes():
    messages = [user("go"), *read_turns(13, tool="read_file")]
    step = build("claude-code", BY_COUNT)(prepare(messages), Settings())
    assert step.acted == ("microcompact",) and len(step.events) == 8
    assert build("claude-code", {"microcompact": False})(prepare(messages), Settings()).acted == ()


def one_message(tokens_wanted_chars):
    return [{"role": "user", "content": "a" * tokens_wanted_chars}]  # len(str([m])) = characters + 33


def test_auto_compact_fires_at_window_minus_reserve_minus_buffer():
    params = {"window_tokens": 10_000, "output_reserve_tokens": 1_000, "buffer_tokens": 1_000}  # threshold 8,000
    at = prepare(one_message(31_967))  # 32,000 characters: 8,000 tokens
    below = prepare(one_message(31_963))  # 31,996 characters: 7,999 tokens
    assert (at.context_tokens, below.context_tokens) == (8_000, 7_999)
    assert build("claude-code", params)(below, Settings()).history is below
    step = build("claude-code", params)(at, Settings())
    assert step.acted == ("auto_compact",) and len(step.history) == 1
    assert step.history.messages[0]["content"].startswith(CLAUDE_CODE_SUMMARY_PREFIX + "\n\n")


def test_default_threshold_is_167000_tokens_of_a_200000_window_for_a_log_of_unknown_version():
    from compaction.agents.claude_code.preset import auto_compact_threshold

    assert auto_compact_threshold(None) == auto_compact_threshold(None, 200_000) == 167_000
    params = {"window_tokens": 10_000, "buffer_tokens": 1_000}  # reserve 0: as the version did, here 20,000
    assert "32,000 when 0" in _problem(params)


def test_claude_code_over_a_long_session_keeps_pairs_and_compacts_near_the_window():
    messages = turns(60, output_chars=12_000)
    result = replay(messages, Settings(), strategy=build("claude-code", {"window_tokens": 60_000}))
    compactions = [r.call for r in result.calls if "auto_compact" in r.acted]
    assert compactions  # threshold 27,000 tokens: 60 x 3,000 tokens of output cross it
    assert max(r.tokens for r in result.calls) < 60_000
    for record in result.calls:
        assert check_pairs(result.history(record.call).messages) == []


def _problem(params):
    from compaction.errors import SettingsError

    try:
        build("claude-code", params)
    except SettingsError as error:
        return str(error)
    return ""
