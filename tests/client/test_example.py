"""The shipped example, the seed's agent loop on the compacting client, run against the local Messages API:
on the seed's demo conversation it sends what the replay predicts, and it answers the compact tool."""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

from compaction.client import CompactingClient
from compaction.importers import load_conversation
from compaction.model.validity import check_pairs
from compaction.replay.loop import replay
from compaction.storage.outputs import OutputStore
from tests.client.compare import assert_same_calls, assert_trace_matches
from tests.client.scripted import ScriptedModel, sdk
from tests.fake_anthropic import assistant_body

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "seed_agent_loop.py"
USAGE = {"input_tokens": 9, "output_tokens": 2}


def example():
    spec = importlib.util.spec_from_file_location("seed_agent_loop", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tools_of(messages: list) -> dict:
    """(tool, its input) -> the output the demo conversation recorded for it: the tools of the demo."""
    calls = {b["id"]: (b["name"], json.dumps(b["input"], sort_keys=True)) for m in messages if m["role"] == "assistant"
             for b in m["content"] if b.get("type") == "tool_use"}
    return {calls[b["tool_use_id"]]: b["content"] for m in messages if m["role"] == "user"
            and isinstance(m["content"], list) for b in m["content"] if b.get("type") == "tool_result"}


def test_the_seed_loop_on_the_client_sends_what_the_replay_predicted(fake_anthropic, tmp_path):
    demo = load_conversation(REPO / "sample_data" / "seed_demo.json")
    store = OutputStore(tmp_path / "store")
    result = replay(demo, store=store)
    model = ScriptedModel(demo)
    fake_anthropic.respond_with(model)
    outputs = tools_of(demo.messages)
    client = CompactingClient(sdk(fake_anthropic), store=store, trace=tmp_path / "trace.jsonl")
    response = example().agent_loop(client, [demo.messages[0]], "claude-fake", [],
                                    lambda name, given: outputs[name, json.dumps(given, sort_keys=True)])
    assert response.stop_reason == "end_turn"
    assert client.calls == len(result.calls) + 1  # and one more after the demo's last result
    assert assert_same_calls(result, fake_anthropic, model, calls=len(result.calls)) == 61
    assert_trace_matches(tmp_path / "trace.jsonl", result, model, calls=len(result.calls))
    session = load_conversation(tmp_path / "trace.jsonl")
    assert session.messages[:123] == demo.messages and len(session.messages) == 124


def test_the_seed_loop_answers_the_compact_tool_through_the_client(fake_anthropic, tmp_path):
    read = {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "a.py"}}
    compact = {"type": "tool_use", "id": "toolu_2", "name": "compact", "input": {"focus": "a.py"}}
    fake_anthropic.enqueue(200, assistant_body([read], "tool_use", USAGE))
    fake_anthropic.enqueue(200, assistant_body([compact], "tool_use", USAGE))
    fake_anthropic.enqueue(200, assistant_body([{"type": "text", "text": "Done."}], "end_turn", USAGE))
    module = example()
    client = CompactingClient(sdk(fake_anthropic), store=OutputStore(tmp_path / "store"), compact_tool=True)
    messages = [{"role": "user", "content": "Read a.py."}]
    module.agent_loop(client, messages, "claude-fake", module.TOOLS, lambda name, given: "print('a')")
    first, second, third = fake_anthropic.bodies()
    assert [t["name"] for t in first["tools"]] == ["read_file", "bash", "compact"]
    assert not check_pairs(second["messages"])
    [summary] = third["messages"]
    assert summary["content"].startswith("[Compacted]") and "a.py" in summary["content"]
    assert messages[-2]["content"][0]["content"].startswith("[Compacted.")  # the caller keeps its whole list
    assert len(messages) == 6


def test_the_example_runs_as_a_script(tmp_path):
    here = {**os.environ, "PYTHONPATH": str(REPO)}  # this checkout's engine, whichever the interpreter has installed
    done = subprocess.run([sys.executable, str(EXAMPLE), "--help"], capture_output=True, text=True, cwd=tmp_path,
                          timeout=60, env=here)
    assert done.returncode == 0, done.stderr
    assert "--context-limit" in done.stdout
