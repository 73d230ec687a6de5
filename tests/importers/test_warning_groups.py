"""Warnings grouped by kind, so a flood of one kind cannot bury the one that matters."""

from compaction.cli.main import main
from compaction.model.conversation import LoadWarning, group_warnings


def test_a_flood_of_one_kind_is_one_group_with_its_count_and_first_places():
    flood = [LoadWarning("two user messages in a row", index=i, line=10 + 2 * i, kind="same_role")
             for i in range(1, 529)]
    important = LoadWarning("tool_use 'toolu_9' is not answered by a tool_result in the next message", index=40,
                            kind="unanswered_tool_use")
    groups = group_warnings(flood[:39] + [important] + flood[39:])
    assert [(g.kind, g.count) for g in groups] == [("same_role", 528), ("unanswered_tool_use", 1)]
    assert groups[0].lines == [12, 14, 16] and groups[0].indices == [1, 2, 3]
    assert groups[0].summary() == "528 x two user messages in a row (first at lines 12, 14, 16; messages 1, 2, 3, ...)"
    assert groups[1].summary() == "message 40: tool_use 'toolu_9' is not answered by a tool_result in the next message"


def test_warnings_without_a_kind_group_by_their_text_with_numbers_taken_out():
    warnings = [LoadWarning(f"content[{n}]: unknown block type 'future' kept as it is", index=n) for n in range(4)]
    warnings.append(LoadWarning("content[0]: unknown block type 'other' kept as it is", index=9))
    assert [g.count for g in group_warnings(warnings)] == [4, 1]


def test_the_command_line_prints_one_line_per_group(tmp_path, capsys):
    lines = ['{"role": "user", "content": "a"}'] + ['{"role": "user", "content": "again"}'] * 30 \
        + ['{"role": "assistant", "content": "b"}']
    path = tmp_path / "flood.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert main(["run", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "  warning: 30 x two user messages in a row (first at messages 1, 2, 3, ...)"
    assert not out[2].startswith("  warning:")
