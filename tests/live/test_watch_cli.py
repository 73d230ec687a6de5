"""`compaction watch` at the command line: the text lines, --until-idle, a what-if strategy, and bad
input said in one line naming the file (and line), with status 2 and no traceback."""

import json

import pytest

from compaction.cli.main import main
from tests.live.growing import CASES


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["watch", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_one_text_line_per_call_then_it_stops_when_idle(capsys, tmp_path):
    code, out, err = run(capsys, str(CASES / "claude_code_growing.jsonl"), "--until-idle", "0")
    lines = out.splitlines()
    calls = [line for line in lines if line.startswith("call ")]
    assert code == 0 and err == "" and len(calls) == 11
    # six growths of history: too few for an 80 % range, which is wider and says so (pace.SHORT)
    assert calls[6].startswith("call 7  line 22  145,690 tokens  +21,000  | Claude Code 2.1.128 compacts at "
                               "167,000: 21,112 tokens to go, 2 calls left (wider, from only 6 calls of history: "
                               "1-4)  | $")
    # what the next compaction does, as the JSON's action says, and what it carries on with
    assert "| next compaction summarises the whole conversation (1 turn of the person and 7 tool results so " \
           "far: about 126,198 tokens beyond the system prompt and tools)" in calls[6]
    assert calls[6].endswith("(22,283 tokens carried on)")
    assert "compaction at line 26 (auto; 170,112 tokens by the agent's count): the forecast starts again from about " \
           "28,639 tokens kept" in lines
    assert lines[-1].startswith("stopped (idle): 11 calls, $")


def test_the_text_says_plainly_when_the_context_is_past_the_threshold(capsys):
    """Claude Code 2.1.6 compacts at 155,000: at call 8 (166,690 tokens and 276 of output) the what-if is past it."""
    code, out, _ = run(capsys, str(CASES / "claude_code_growing.jsonl"), "--until-idle", "0",
                       "--strategy", "claude-code", "--param", "version=2.1.6")
    call_8 = next(line for line in out.splitlines() if line.startswith("call 8 "))
    assert code == 0 and "| what if Claude Code 2.1.6 compacts at 155,000: the context is already past it by " \
        "11,966 tokens, so it compacts before the next call" in call_8


def test_a_what_if_strategy_is_forecast_beside_the_agents(capsys):
    code, out, _ = run(capsys, str(CASES / "claude_code_growing.jsonl"), "--until-idle", "0", "--json",
                       "--strategy", "claude-code", "--param", "version=2.1.6")
    objects = [json.loads(line) for line in out.splitlines()]
    calls = [found for found in objects if found["event"] == "call"]
    assert code == 0 and {call["what_if"]["threshold"] for call in calls} == {155_000}
    assert calls[7]["what_if"]["tokens_left"] < 0 < calls[7]["tokens_left"]  # 2.1.6 would have compacted already


def test_a_file_outside_the_allowed_folders_is_refused_by_name(capsys, monkeypatch, tmp_path):
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    monkeypatch.setenv("COMPACTION_SESSION_FOLDERS", str(allowed))
    code, out, err = run(capsys, str(CASES / "claude_code_growing.jsonl"), "--until-idle", "0")
    assert code == 2 and out == ""
    assert err == (f"compaction: error: {CASES / 'claude_code_growing.jsonl'}: outside the folders this server "
                   f"follows sessions in (COMPACTION_SESSION_FOLDERS: {allowed})\n")


def test_a_file_inside_the_allowed_folders_is_followed(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("COMPACTION_SESSION_FOLDERS", str(tmp_path))
    path = tmp_path / "session.jsonl"
    path.write_bytes((CASES / "claude_code_growing.jsonl").read_bytes())
    code, out, _ = run(capsys, str(path), "--until-idle", "0")
    assert code == 0 and out.count("\ncall ") == 10


@pytest.mark.parametrize(("text", "said"), [
    (b'{"role": "user", "content": "hi"}\n', "line 1: not a line of a Claude Code, Codex CLI or Gemini CLI log"),
    (b"not json\n" * 20, "20 lines and none is a JSON object of a Claude Code, Codex CLI or Gemini CLI log (line 1: "
                         "not valid JSON)"),
])
def test_a_file_of_another_kind_is_said_in_one_line(capsys, tmp_path, text, said):
    path = tmp_path / "other.jsonl"
    path.write_bytes(text)
    code, out, err = run(capsys, str(path), "--until-idle", "0")
    assert code == 2 and err.startswith(f"compaction: error: {path}") and said in err
    assert "Traceback" not in err and len(err.splitlines()) == 1


def test_bad_flags_and_missing_files(capsys, tmp_path):
    code, _, err = run(capsys, str(tmp_path / "nowhere.jsonl"))
    assert (code, err) == (2, f"compaction: error: {tmp_path / 'nowhere.jsonl'}: no such file\n")
    code, _, err = run(capsys, str(CASES / "codex_growing.jsonl"), "--param", "trigger=5")
    assert code == 2 and "give --strategy too" in err
    code, _, err = run(capsys, str(CASES / "codex_growing.jsonl"), "--strategy", "codex", "--param", "window=5")
    assert code == 2 and "codex has no parameter 'window'" in err


def test_a_line_that_is_not_json_is_skipped_and_said(capsys, tmp_path):
    path = tmp_path / "session.jsonl"
    lines = (CASES / "claude_code_growing.jsonl").read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:5]) + b"{broken\n" + b"".join(lines[5:]))
    code, out, _ = run(capsys, str(path), "--until-idle", "0", "--json")
    objects = [json.loads(line) for line in out.splitlines()]
    assert {"event": "skipped", "line": 6, "reason": "not valid JSON"} in objects
    assert sum(1 for found in objects if found["event"] == "call") == 11 and code == 0


def test_a_call_whose_later_line_counts_more_input_is_said_again(capsys, tmp_path):
    """A relay's response whose first line counted 1,304 input tokens and its last 40,893: the call is
    said again, revised, with the forecast from the whole count."""
    from tests.live.test_claude_code_lines import write_relayed

    path = write_relayed(tmp_path / "6b4a1a42.jsonl")
    code, out, _ = run(capsys, str(path), "--until-idle", "0", "--json")
    calls = [found for found in map(json.loads, out.splitlines()) if found["event"] == "call"]
    assert code == 0 and [(c["call"], c.get("revised", False)) for c in calls] == [(1, False), (2, False), (2, True)]
    assert calls[2]["tokens"] == 40_893 + 48_440 + 70 and calls[2]["growth"] == 40_893 - 30_000
    assert calls[2]["forecast"]["tokens_now"] > calls[1]["forecast"]["tokens_now"] + 39_000
    code, out, _ = run(capsys, str(path), "--until-idle", "0")
    assert "call 2  line 3  89,403 tokens  +10,893 (revised: a later line of the response counts more input)" in out
