"""What the settings keep verbatim survives the compacting client as it survives a replay: the client walks
the turns with the replay's own protocol, so with `keep_tools` and `keep_inputs` set, a replay of the
client's trace makes the same decisions call for call, across a compact-tool call that keeps the CLAUDE.md
read (the client once walked the turns with a copy of its own that dropped it). Real HTTP to the local
Messages API."""

import json

from compaction.client import CompactingClient
from compaction.importers import load_conversation
from compaction.importers.trace import read_trace
from compaction.layers.compact_tool import COMPACT_RESULT
from compaction.model.conversation import Conversation
from compaction.model.settings import DEFAULTS
from compaction.replay.loop import replay
from compaction.storage.outputs import OutputStore
from tests.client.scripted import ScriptedModel, drive, sdk

KEEPS = DEFAULTS.replace(keep_tools=("grep",), keep_inputs=("CLAUDE.md",), context_limit=9_000, keep_recent=2)
COMPACT_AT = 9  # the turn whose assistant message calls the compact tool
WINDOW = 10_000_000


def tool_turn(number: int, name: str, tool_input: dict, output: str, compact: bool = False) -> list[dict]:
    use_id = f"toolu_{number}"
    uses = [{"type": "tool_use", "id": use_id, "name": name, "input": tool_input}]
    results = [{"type": "tool_result", "tool_use_id": use_id, "content": output}]
    if compact:
        uses.append({"type": "tool_use", "id": f"{use_id}_compact", "name": "compact",
                     "input": {"focus": "the failing test"}})
        results.append({"type": "tool_result", "tool_use_id": f"{use_id}_compact", "content": COMPACT_RESULT})
    return [{"role": "assistant", "content": [{"type": "text", "text": f"Step {number}."}, *uses]},
            {"role": "user", "content": results}]


def session() -> list[dict]:
    """A coding session: CLAUDE.md read first, a grep, then reads and test runs of 1,500 characters each;
    at turn COMPACT_AT the model also calls the compact tool."""
    rules = "# Project rules\n" + "Run the tests with pytest -q before every commit.\n" * 30
    messages: list[dict] = [{"role": "user", "content": "Fix the failing test in src/app.py."}]
    messages += tool_turn(0, "read_file", {"path": "CLAUDE.md"}, rules)
    messages += tool_turn(1, "grep", {"pattern": "def handler"}, "src/app.py:12: def handler(event):\n" * 20)
    for number in range(2, 16):
        output = f"output of step {number}: a line of a file or of a test run\n" * 27
        name, tool_input = ("bash", {"command": f"pytest -k case_{number}"}) if number % 2 else \
            ("read_file", {"path": f"src/mod_{number}.py"})
        messages += tool_turn(number, name, tool_input, output, compact=number == COMPACT_AT)
    messages.append({"role": "assistant", "content": [{"type": "text", "text": "Fixed."}]})
    return messages


def holds(messages: list[dict], text: str) -> bool:
    return text in json.dumps(messages)


def test_a_replay_of_the_trace_makes_the_clients_decisions_with_keep_settings(fake_anthropic, tmp_path):
    messages = session()
    store = OutputStore(tmp_path / "store")  # one folder: L3's markers name the same files
    fake_anthropic.respond_with(ScriptedModel(messages, WINDOW))
    client = CompactingClient(sdk(fake_anthropic), settings=KEEPS, store=store, trace=tmp_path / "trace.jsonl")
    calls = drive(client, Conversation(messages))
    sent = [body["messages"] for body in fake_anthropic.answered(200)]
    assert len(sent) == calls == 17

    traced = read_trace(tmp_path / "trace.jsonl")
    acted = [tuple(call.acted) for call in traced.calls]
    after = COMPACT_AT + 1  # the call after the turn that called the compact tool
    assert acted[after][0] == "compact_tool" and sum("compact_tool" in a for a in acted) == 1
    assert sum(bool(a) for a in acted) >= 3, "the layers must act besides the compact tool"
    # the compact tool's summary replaced the turns before it, and what the settings keep follows it whole
    assert holds(sent[after], "[Compacted") and not holds(sent[after], "output of step 4")
    assert holds(sent[after], '"CLAUDE.md"') and holds(sent[after], "Run the tests with pytest -q")
    assert holds(sent[after], "src/app.py:12: def handler")
    assert all(holds(request, "Run the tests with pytest -q") for request in sent[1:])

    again = replay(load_conversation(tmp_path / "trace.jsonl"), KEEPS, store=store, model_window_tokens=WINDOW)
    assert len(again.calls) == calls
    for record, request in zip(again.calls, sent, strict=True):
        assert again.history(record.call).messages == request, f"call {record.call}: the requests differ"
    assert [record.acted for record in again.calls] == acted
    # the replay of the session itself (not of the trace) predicted the same requests
    predicted = replay(messages, KEEPS, store=store, model_window_tokens=WINDOW)
    assert [predicted.history(record.call).messages for record in predicted.calls] == sent


def test_without_keep_settings_the_compact_tool_summarises_the_claude_md_read(tmp_path):
    """The case tells the two apart: with nothing kept, the request after the compact call has no CLAUDE.md."""
    messages = session()
    result = replay(messages, KEEPS.replace(keep_tools=(), keep_inputs=()), store=OutputStore(tmp_path / "store"))
    after = result.history(COMPACT_AT + 1).messages
    assert "compact_tool" in result.calls[COMPACT_AT + 1].acted
    assert holds(after, "[Compacted") and not holds(after, "Run the tests with pytest -q")
