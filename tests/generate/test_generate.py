"""The generators: the seed demo exactly, realistic sessions valid, reproducible and heavy-tailed."""

import argparse
import json
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compaction.cli.generate import add_command as add_generate_command
from compaction.errors import SettingsError
from compaction.generate import generate, realistic_session, seed_demo
from compaction.importers import load_conversation
from compaction.model.messages import tool_results, tool_uses
from compaction.model.validity import check_pairs


def _outputs(messages):
    return [block for message in messages for block in tool_results(message)]


def test_seed_demo_is_the_seed_documents_conversation():
    messages = seed_demo()
    assert len(messages) == 123
    assert round(len(str(messages)) / 1000) == 697
    assert messages[0] == {"role": "user", "content": "帮我写一个命令行工具 hello.py"}
    assert [use["id"] for m in messages for use in tool_uses(m)] == [f"t{i}" for i in range(60)] + ["tbig"]
    assert messages[2]["content"][0]["content"] == "def func_0():\n    return 0\n" * 25
    assert messages[-2]["content"][0]["input"] == {"command": "cat data/dump.json"}
    assert messages[-1]["content"][0]["content"].startswith('{"rows": [[1,"row-0",0],[1,"row-1",1]')
    assert check_pairs(messages) == []


def test_seed_demo_is_a_fresh_copy_each_time():
    first = seed_demo()
    first[1]["content"][0]["id"] = "changed"
    assert seed_demo()[1]["content"][0]["id"] == "t0"


def test_realistic_is_deterministic_per_seed():
    assert realistic_session(turns=80, seed=5) == realistic_session(turns=80, seed=5)
    assert realistic_session(turns=80, seed=5) != realistic_session(turns=80, seed=6)


@settings(max_examples=25, deadline=None)
@given(turns=st.integers(1, 60), seed=st.integers(0, 2**32), parallel=st.floats(0, 1),
       typical=st.integers(1, 3000))
def test_realistic_is_always_valid_and_has_the_asked_shape(turns, seed, parallel, typical):
    messages = realistic_session(turns=turns, typical_output=typical, max_output=typical * 20,
                                 parallel_share=parallel, seed=seed)
    assert check_pairs(messages) == []
    assert len(messages) == 2 * turns + 1
    assert messages[0]["role"] == "user" and isinstance(messages[0]["content"], str)
    assert tool_results(messages[-1])  # ends just before the next model call
    assert all(len(block["content"]) <= typical * 20 for block in _outputs(messages))


def test_realistic_sizes_are_heavy_tailed():
    sizes = sorted(len(block["content"]) for block in _outputs(realistic_session(turns=2000, seed=1)))
    median = statistics.median(sizes)
    assert 200 < median < 1600  # around the typical 800 characters
    assert sizes[-1] > 30 * median  # a few huge outputs
    assert sum(size > 10 * median for size in sizes) < len(sizes) * 0.05  # ...but only a few


def test_realistic_has_parallel_calls_errors_follow_ups_and_reasoning():
    messages = realistic_session(turns=600, parallel_share=0.2, seed=2)
    assistant = [m for m in messages if m["role"] == "assistant"]
    assert sum(len(tool_uses(m)) > 1 for m in assistant) > 60
    assert any(block.get("is_error") for block in _outputs(messages))
    follow_ups = [m["content"] for m in messages[1:] if m["role"] == "user" and isinstance(m["content"], str)]
    assert any("dependencies" in text for text in follow_ups)
    assert sum(any(b["type"] == "text" for b in m["content"]) for m in assistant) > 200
    names = {use["name"] for m in assistant for use in tool_uses(m)}
    assert names == {"read_file", "grep", "bash", "edit_file", "run_tests"}


@pytest.mark.parametrize("knobs", [
    {"turns": 0}, {"turns": 2.5}, {"typical_output": 0}, {"typical_output": 900, "max_output": 800},
    {"parallel_share": 1.5}, {"colour": "red"},
])
def test_bad_knobs_are_settings_errors(knobs):
    with pytest.raises(SettingsError):
        generate("realistic", **knobs)


def test_generate_dispatches_and_refuses_unknown_kinds():
    assert generate("seed-demo") == seed_demo()
    assert generate("realistic", turns=3, seed=9) == realistic_session(turns=3, seed=9)
    with pytest.raises(SettingsError, match="unknown kind 'tiny'"):
        generate("tiny")
    with pytest.raises(SettingsError, match="takes no settings"):
        generate("seed-demo", turns=3)


def _run_cli(argv):
    parser = argparse.ArgumentParser()
    add_generate_command(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.handler(args)


@pytest.mark.parametrize("fmt", ["anthropic", "claude-code", "openai"])
def test_cli_writes_a_loadable_session_in_each_format(tmp_path, fmt):
    out = tmp_path / "session.out"
    assert _run_cli(["generate", "--turns", "25", "--seed", "4", "--format", fmt, "-o", str(out)]) == 0
    conversation = load_conversation(out)
    assert conversation.format == fmt
    assert len(conversation.messages) == 51
    assert check_pairs(conversation.messages) == []


def test_cli_writes_the_seed_demo_to_stdout(capsys):
    assert _run_cli(["generate", "--kind", "seed-demo"]) == 0
    assert json.loads(capsys.readouterr().out) == seed_demo()


def test_cli_bad_knob_raises_settings_error(tmp_path):
    with pytest.raises(SettingsError, match="turns must be"):
        _run_cli(["generate", "--turns", "0", "-o", str(tmp_path / "x.json")])
