"""An evaluation output of several runs, one a line: its runs listed by instance, each read as a
conversation of its own, and a file changed since it was listed named as such."""

import json
import shutil
from pathlib import Path

import pytest

from compaction.errors import ConversationError
from compaction.importers import load_conversation, load_run
from compaction.importers.runs import RunKey, runs_in

CASES = Path(__file__).parent / "cases" / "valid"
OUTPUT = CASES / "openhands_output_metrics.jsonl"
INSTANCES = ["textkit__textkit-17", "dates__dates-4", "pkg__pkg-2"]


def test_the_runs_of_an_output_are_listed_by_instance():
    assert runs_in(OUTPUT) == tuple(RunKey(line, name, name) for line, name in enumerate(INSTANCES, start=1))


def test_each_run_reads_as_the_conversation_of_its_own_line():
    whole = load_conversation(OUTPUT)  # as one file: the first run, and a warning naming the others
    assert whole.warnings[0].kind == "first_run"
    first, second, third = (load_run(OUTPUT, key, name=OUTPUT.name) for key in runs_in(OUTPUT))
    assert first.messages == whole.messages and first.usage == whole.usage
    assert [w.kind for w in first.warnings] == [w.kind for w in whole.warnings[1:]]  # no "first run" there
    assert [run.metadata["instance_id"] for run in (first, second, third)] == INSTANCES
    assert second.messages[0]["content"] == "Why does test_parse_dates fail?"
    # the third answered under the served model's name, its usage from the model response
    assert [entry["model"] for entry in third.usage if entry] == ["claude-sonnet-4-20250514"]


def test_files_of_one_run_or_of_another_kind_are_one_session(tmp_path):
    single = tmp_path / "output.jsonl"
    single.write_text(OUTPUT.read_text().splitlines()[0] + "\n")
    assert runs_in(single) == ()
    assert runs_in(CASES / "gemini_stream.jsonl") == ()
    copy = tmp_path / "output.json"  # runs are JSON lines: another suffix is not read past its name
    shutil.copy(OUTPUT, copy)
    assert runs_in(copy) == ()


def test_runs_sharing_an_instance_are_told_apart_by_their_line(tmp_path):
    first = OUTPUT.read_text().splitlines()[0]
    output = tmp_path / "output.jsonl"
    output.write_text(f"{first}\n{first}\n")
    assert [key.name for key in runs_in(output)] == ["textkit__textkit-17", "textkit__textkit-17 (line 2)"]


def test_a_file_changed_since_its_runs_were_listed_is_named(tmp_path):
    output = tmp_path / "output.jsonl"
    shutil.copy(OUTPUT, output)
    keys = runs_in(output)
    lines = OUTPUT.read_text().splitlines()
    output.write_text("\n".join([lines[0], lines[2]]) + "\n")  # the second run removed
    with pytest.raises(ConversationError) as caught:
        load_run(output, keys[1], name="output.jsonl")
    assert str(caught.value) == ("output.jsonl: line 2 no longer holds run dates__dates-4 (the file changed since its "
                                 "runs were listed): read the folder again")
    with pytest.raises(ConversationError, match="line 3 no longer holds run pkg__pkg-2"):
        load_run(output, keys[2], name="output.jsonl")


def test_a_run_line_that_is_not_a_run_is_refused(tmp_path):
    output = tmp_path / "output.jsonl"
    output.write_text(json.dumps({"role": "user", "content": "hi"}) + "\n")
    with pytest.raises(ConversationError, match="no longer holds run"):
        load_run(output, RunKey(1, "line 1"), name="output.jsonl")


def test_a_run_no_format_reads_is_named_as_such(tmp_path):
    output = tmp_path / "output.jsonl"  # the 2024 layout: history as [action, observation] pairs
    row = {"instance_id": "ProntoQA_1", "history": [[{"action": "message"}, {"observation": "null"}]]}
    output.write_text(json.dumps(row) + "\n" + json.dumps({**row, "instance_id": "ProntoQA_2"}) + "\n")
    first, _ = runs_in(output)
    with pytest.raises(ConversationError) as caught:
        load_run(output, first, name="output.jsonl")
    assert str(caught.value) == ("output.jsonl: line 1 (run ProntoQA_1): no format here reads its 'history' (its "
                                 "first event is a list)")
