"""What the first call after a Claude Code compaction carries (after_compaction.first_call_after) and how
the preset carries on from there: the base, the summary (the log's own or one learnt by version), the files
read again (the newest 5; over 5,000 tokens left out or a path only, by version; the plan file, MEMORY.md and failed
reads left out), the plan and to-do list, the log's own attachment lines where it wrote them (2.1.92 on)."""

import pytest

from compaction.agents.claude_code.after_compaction import BASE_SHOWN, first_call_after, learnt_summary_chars
from compaction.agents.claude_code.compacting import REREAD_OPENING
from compaction.agents.claude_code.recent_files import CUT_READ_CHARS, recent_files
from compaction.importers import load_conversation
from compaction.model.calibration import recorded_context
from compaction.replay.loop import replay

from .claude_code_lines import LogLines


def _use(n, name, **given):
    return {"role": "assistant", "content": [{"type": "tool_use", "id": f"t{n}", "name": name, "input": given}]}


def _result(n, text, error=False):
    return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{n}", "content": text,
                                         **({"is_error": True} if error else {})}]}


SESSION = [
    {"role": "user", "content": "Fix the parser."},
    _use(1, "Read", file_path="/app/a.py"), _result(1, "a" * 2_000),
    _use(2, "Read", file_path="/app/b.py"), _result(2, "File does not exist.", error=True),
    _use(3, "Edit", file_path="/app/a.py", old_string="aa", new_string="aaaa"), _result(3, "The file was updated."),
    _use(4, "Write", file_path="/home/dev/.claude/plans/fix.md", content="plan"), _result(4, "Written."),
    _use(5, "Read", file_path="/home/dev/.claude/projects/app/memory/MEMORY.md"), _result(5, "m" * 500),
    _use(6, "Read", file_path="/app/c.py"), _result(6, "c" * 30_000),
    _use(7, "TodoWrite", todos=[{"content": "fix the parser", "status": "in_progress"}]), _result(7, "ok"),
]


def test_the_files_read_again_are_the_newest_the_log_shows():
    files = recent_files(SESSION)
    assert [f.path for f in files] == ["/app/c.py", "/app/a.py"]  # no failed read, plan file or MEMORY.md
    # a.py: its Read (2,000 characters) with the Edit applied (2 characters more, and their line numbers)
    assert files[1].chars == 2_000 + 4 + 7 - 2 - 7 and files[0].chars == 30_000 and files[0].text == "c" * 30_000
    assert len(recent_files(SESSION * 1, limit=1)) == 1 and recent_files(SESSION, limit=0) == []


@pytest.mark.parametrize(("version", "c_tokens"), [("2.1.41", 0), ("2.1.140", 40)])
def test_a_file_over_5000_tokens_is_left_out_until_2_1_127_and_a_path_from_2_1_128(version, c_tokens):
    after = first_call_after(SESSION, version, first_call_tokens=20_100, first_call_index=1, tokens_per_char=0.25,
                             summary_chars=10_000)
    prompt = len(str(SESSION[0])) + 2
    assert after.part("base") == round(20_100 - 0.25 * prompt)
    assert after.part("summary") == 2_500  # the log's own summary: 10,000 characters
    assert after.part("files") == c_tokens + round(0.25 * 1_999 + 0.25 * 0)  # c.py, then a.py (500 tokens)
    assert after.part("to-do list") == round(0.25 * len('[{"content": "fix the parser", "status": "in_progress"}]'))
    assert after.tokens == sum(tokens for _, tokens in after.parts)
    assert "summary 2,500 (the log's own, 10,000 characters)" in after.basis


def test_a_summary_the_log_does_not_hold_takes_the_size_learnt_for_its_version():
    assert learnt_summary_chars("2.0.76") == (9_946, "the median of 57 public logs' summaries from 2.0.0 on")
    assert learnt_summary_chars("1.0.89")[0] == 8_816 and learnt_summary_chars(None)[0] == 10_116
    after = first_call_after(SESSION, "2.0.76", first_call_tokens=20_100, tokens_per_char=0.25)
    assert after.part("summary") == round(0.25 * 9_946) and "the log does not hold it" in after.basis


def test_the_logs_own_attachment_lines_say_what_came_back():
    attachments = [{"type": "file", "chars": 4_000, "filename": "/app/a.py", "path_only": False, "lines": 100},
                   {"type": "compact_file_reference", "chars": 40, "filename": "/app/big.xml", "path_only": True},
                   {"type": "hook_success", "chars": 2_000}, {"type": "invoked_skills", "chars": 1_200}]
    start = [{"type": "skill_listing", "chars": 3_000}, {"type": "hook_success", "chars": 2_000}]
    after = first_call_after(SESSION, "2.1.132", first_call_tokens=21_000, first_call_index=1, tokens_per_char=0.25,
                             summary_chars=8_000, attachments=attachments, start_attachments=start)
    prompt = len(str(SESSION[0])) + 2
    assert after.part("base") == round(21_000 - 0.25 * (prompt + 5_000))  # less what the start's lines carried
    assert after.part("files") == round(0.25 * (4_000 + 700)) + 40 and after.files == ()
    assert after.part("reloaded") == 500 and after.part("plan and skills") == 300  # the hook output, the skill
    assert "2 file(s) re-attached" in after.basis and "the log's attachment lines" in after.basis


def _compacted_log(tmp_path):
    """A 2.1.132 session in the public layout: Reads, the compaction with its summary and attachment lines,
    then calls that grow by what their results weigh."""
    log = LogLines("2.1.132", model="claude-sonnet-4-5-20250929")
    log.prompt("Fix the portal view.")
    log.call(21_000, "Read", {"file_path": "/app/portal.py"}, "p" * 3_000)
    context = 30_000
    while context < 167_000:
        log.call(context, "Read", {"file_path": f"/app/v{context}.xml"}, "v" * 40_000)
        context += 11_000
    attachments = ({"type": "file", "filename": "/app/portal.py", "displayPath": "app/portal.py",
                    "content": {"type": "text", "file": {"filePath": "/app/portal.py", "content": "p" * 3_000,
                                                        "numLines": 1, "startLine": 1, "totalLines": 1}}},
                   {"type": "deferred_tools_delta", "addedNames": ["WebFetch"], "addedLines": ["WebFetch"],
                    "removedNames": [], "readdedNames": []})
    log.compaction(context, "Summary:\n1. Primary Request and Intent: fix the portal view. " + "s" * 9_000,
                   attachments)
    for n, grown in enumerate((24_000, 25_100, 27_900, 28_200)):
        log.call(grown, "Bash", {"command": f"make {n}"}, "b" * 4_000)
    log.answer(29_000)
    return load_conversation(log.write(tmp_path))


def test_the_preset_carries_on_with_what_the_first_call_after_is_expected_to_carry(tmp_path):
    conversation = _compacted_log(tmp_path)
    [boundary] = conversation.metadata["compact_boundaries"]
    result = replay(conversation, strategy="claude-code")
    first_after = next(c for c in result.calls if c.index > boundary["index"])
    assert "auto_compact" in first_after.acted  # where the log compacted
    [summary] = [e for e in first_after.events if getattr(e, "layer", "") == "auto_compact"]
    assert "the log's own" in summary.reason and "1 file(s) re-attached" in summary.reason
    sent = result.history(first_after.call)
    assert sent.messages[1]["content"].startswith(REREAD_OPENING) and "p" * 3_000 in sent.messages[1]["content"]
    expected = first_call_after(conversation.messages[:boundary["index"]], "2.1.132", first_call_tokens=21_000,
                                first_call_index=1, tokens_per_char=result.token_model.tokens_per_char,
                                summary_chars=sent.prepared.sizes[boundary["index"]],
                                attachments=boundary["attachments"])
    # the model's figure, its system prompt and tools no larger than the log's own first call after shows them
    assert first_after.tokens == min(expected.tokens, recorded_context(conversation.usage[first_after.index]))
    # after it, each call grows by what the log recorded between the calls
    later = [c for c in result.calls if c.index > first_after.index]
    recorded = [recorded_context(conversation.usage[c.index]) for c in [first_after, *later]]
    assert [c.tokens - first_after.tokens for c in later] == [r - recorded[0] for r in recorded[1:]]


def test_a_file_read_in_parts_comes_back_as_long_as_its_furthest_line():
    """Claude Code reads the whole file again; the log showed lines 1-100 and 250-279 (numbered with a tab, as
    2.1 numbers them), so the file is taken as 279 lines at the mean length of the lines seen."""
    late = "".join(f"{n}\t{'x' * 38}\n" for n in range(250, 280))
    early = "".join(f"{n}\t{'y' * 50}\n" for n in range(1, 101))
    messages = [{"role": "user", "content": "Tidy the view."},
                _use(1, "Read", file_path="/app/view.xml", offset=250, limit=30), _result(1, late),
                _use(2, "Read", file_path="/app/view.xml", offset=1, limit=100), _result(2, early)]
    [found] = recent_files(messages)
    chars, lines = len(late) + len(early), late.count("\n") + 1 + early.count("\n") + 1
    assert found.chars == round(279 * chars / lines) and found.lines == 279
    # a whole read after them says what the file is
    whole = messages + [_use(3, "Read", file_path="/app/view.xml"), _result(3, "z" * 900)]
    assert recent_files(whole)[0].chars == 900 and recent_files(whole)[0].lines == 1


def test_a_read_cut_at_its_limit_comes_back_at_least_as_long_as_the_files_re_attached():
    """A log read the head of a 52-line note (limit 8: eight lines came back, so the file goes on) and the
    whole of a 3-line one with limit 8 (the file ended first). Claude Code re-reads the first whole: the log
    does not say how long it is, so it counts as the median file the 2.1.92+ logs re-attach."""
    head = "".join(f"{n}\t{'d' * 60}\n" for n in range(1, 9))
    short = "".join(f"{n}\t{'p' * 40}\n" for n in range(1, 4))
    messages = [{"role": "user", "content": "Check the decisions."},
                _use(1, "Read", file_path="/vault/DECISIONS.md", limit=8), _result(1, head),
                _use(2, "Read", file_path="/vault/PROTOCOL.md", limit=8), _result(2, short)]
    protocol, decisions = recent_files(messages)
    assert decisions.chars == CUT_READ_CHARS and protocol.chars == len(short)


def _log_whose_fixed_part_dropped(tmp_path):
    """A 2.1.41 session whose first call carries 100,000 tokens (its tools) and whose first call after its
    compaction carries 40,000 (the tools deferred to a tool search), then grows to a second compaction."""
    log = LogLines("2.1.41", model="claude-sonnet-4-5-20250929")
    log.prompt("Sort the reports.")
    context = 100_000
    while context < 167_000:
        log.call(context, "Read", {"file_path": f"/app/r{context}.md"}, "r" * 40_000)
        context += 11_000
    log.compaction(context, "Summary:\n1. Primary Request and Intent: sort the reports. " + "s" * 9_000)
    context = 40_000
    while context < 167_000:
        log.call(context, "Read", {"file_path": f"/app/q{context}.md"}, "q" * 40_000)
        context += 11_000
    log.compaction(context, "Summary:\n1. Primary Request and Intent: sort the reports. " + "t" * 9_000)
    log.call(41_000, "Bash", {"command": "make"}, "ok")
    log.answer(41_500)
    return load_conversation(log.write(tmp_path))


def test_a_later_compaction_carries_the_fixed_part_the_earlier_one_showed(tmp_path):
    conversation = _log_whose_fixed_part_dropped(tmp_path)
    first, second = conversation.metadata["compact_boundaries"]
    result = replay(conversation, strategy="claude-code")
    compacted = [c for c in result.calls if "auto_compact" in c.acted]
    reason = [e for e in compacted[0].events if getattr(e, "layer", "") == "auto_compact"][0].reason
    # the first compaction measures the fixed part from the first call, no larger than the log's own first call
    # after it shows it; from the next one on, the log's earlier compaction showed it
    assert compacted[0].index > first["index"] and "the session's first call" in reason
    assert "the log's first call after its own compaction carried" in reason
    [summary] = [e for e in compacted[1].events if getattr(e, "layer", "") == "auto_compact"]
    assert BASE_SHOWN in summary.reason
    log_after = recorded_context(conversation.usage[next(i for i, m in enumerate(conversation.messages)
                                                          if i > second["index"] and m["role"] == "assistant")])
    assert abs(compacted[1].tokens / log_after - 1) <= 0.10
    first_after = recorded_context(conversation.usage[compacted[0].index])
    assert compacted[0].tokens <= first_after < 2 * log_after  # not the first call's 100,000 tools
