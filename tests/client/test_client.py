"""The compacting client's behaviour over real HTTP to the local Messages API: what it sends, what it does
with the API's errors, what it refuses, and what its trace holds."""

import json

import anthropic
import pytest

from compaction.client import CompactingClient
from compaction.errors import ConversationError, SettingsError
from compaction.layers.compact_tool import COMPACT_RESULT, COMPACT_TOOL
from compaction.model.markers import PLACEHOLDER, REACTIVE_PREFIX
from compaction.model.validity import check_pairs
from compaction.storage.outputs import OutputStore
from tests.client.scripted import sdk
from tests.fake_anthropic import MESSAGES, assistant_body, too_long_body

USAGE = {"input_tokens": 11, "output_tokens": 3}


def turn(number: int, chars: int = 400) -> list[dict]:
    use = {"type": "tool_use", "id": f"toolu_{number}", "name": "read_file", "input": {"path": f"f{number}.py"}}
    return [{"role": "assistant", "content": [use]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use["id"], "content": "x" * chars}]}]


def history(turns: int) -> list[dict]:
    messages = [{"role": "user", "content": "Read every file."}]
    for number in range(turns):
        messages += turn(number)
    return messages


def client_for(fake, tmp_path, **kw) -> CompactingClient:
    return CompactingClient(sdk(fake), store=OutputStore(tmp_path / "store"), **kw)


def create(client, messages, **kw):
    return client.messages.create(model="claude-fake", max_tokens=100, messages=messages, **kw)


def test_old_tool_results_are_compacted_before_the_call_and_the_callers_list_is_left_alone(fake_anthropic, tmp_path):
    messages = history(6)
    before = json.dumps(messages)
    create(client_for(fake_anthropic, tmp_path, settings={"keep_recent": 2}), messages)
    assert json.dumps(messages) == before
    [sent] = fake_anthropic.bodies()
    contents = [b["content"] for m in sent["messages"] for b in m["content"] if isinstance(m["content"], list)
                and b.get("type") == "tool_result"]
    assert contents == [PLACEHOLDER] * 4 + ["x" * 400] * 2


def test_sdk_blocks_appended_as_they_come_back_are_measured_as_the_api_documents_them(fake_anthropic, tmp_path):
    """The tutorial's loop appends `response.content` (pydantic objects): the client sends and measures the
    same dicts a log would hold, so a replay of that log predicts these calls."""
    use = {"type": "tool_use", "id": "toolu_a", "name": "read_file", "input": {"path": "a.py"}}
    fake_anthropic.enqueue(200, assistant_body([{"type": "text", "text": "Reading."}, use], "tool_use", USAGE))
    client = client_for(fake_anthropic, tmp_path)
    messages = [{"role": "user", "content": "Go."}]
    response = create(client, messages)
    messages.append({"role": "assistant", "content": response.content})
    messages.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a", "content": "ok"}]})
    create(client, messages)
    sent = fake_anthropic.bodies()[1]["messages"][1]
    assert sent == {"role": "assistant", "content": [{"type": "text", "text": "Reading."}, use]}
    assert list(sent["content"][1]) == ["type", "id", "name", "input"]


def test_the_real_prompt_too_long_error_compacts_reactively_and_retries_once(fake_anthropic, tmp_path):
    fake_anthropic.enqueue(400, too_long_body(208_656, 200_000))
    client = client_for(fake_anthropic, tmp_path, trace=tmp_path / "trace.jsonl")
    response = create(client, history(6))
    assert response.content[0].text.startswith("Fake summary")
    refused, retried = fake_anthropic.bodies()
    assert len(refused["messages"]) == 13
    assert retried["messages"][0]["content"].startswith(REACTIVE_PREFIX)
    assert not check_pairs(retried["messages"])
    line = json.loads((tmp_path / "trace.jsonl").read_text().splitlines()[1])
    assert line["acted"] == ["L2", "reactive"] and "prompt is too long" in line["refused"]


def test_a_second_refusal_reaches_the_caller_as_the_sdk_raised_it(fake_anthropic, tmp_path):
    fake_anthropic.prompt_too_long()
    fake_anthropic.prompt_too_long()
    with pytest.raises(anthropic.BadRequestError, match="prompt is too long"):
        create(client_for(fake_anthropic, tmp_path), history(6))
    assert len(fake_anthropic.requests) == 2


def test_other_api_errors_are_not_compacted_and_the_call_can_be_made_again(fake_anthropic, tmp_path):
    fake_anthropic.error(400, "messages: tool_use ids were found without tool_result blocks immediately after")
    client = client_for(fake_anthropic, tmp_path)
    messages = history(2)
    with pytest.raises(anthropic.BadRequestError, match="tool_use ids"):
        create(client, messages)
    create(client, messages)  # the same conversation again: nothing is appended twice
    assert fake_anthropic.bodies()[0]["messages"] == fake_anthropic.bodies()[1]["messages"] == messages


def test_the_compact_tool_is_offered_answered_and_then_compacts(fake_anthropic, tmp_path):
    call = {"type": "tool_use", "id": "toolu_c", "name": "compact", "input": {"focus": "the parser"}}
    fake_anthropic.enqueue(200, assistant_body([call], "tool_use", USAGE))
    client = client_for(fake_anthropic, tmp_path, compact_tool=True)
    messages = history(3)
    response = create(client, messages, tools=[{"name": "read_file", "input_schema": {"type": "object"}}])
    assert [t["name"] for t in fake_anthropic.bodies()[0]["tools"]] == ["read_file", COMPACT_TOOL["name"]]
    answer = client.answer_compact(response.content[0])
    assert answer == {"type": "tool_result", "tool_use_id": "toolu_c", "content": COMPACT_RESULT}
    assert client.answer_compact({"type": "tool_use", "name": "bash", "id": "x"}) is None
    messages += [{"role": "assistant", "content": response.content}, {"role": "user", "content": [answer]}]
    create(client, messages)
    [summary] = fake_anthropic.bodies()[1]["messages"]
    assert summary["content"].startswith("[Compacted]") and "Focus requested: the parser" in summary["content"]


def test_a_compact_call_left_unanswered_is_answered_by_the_client(fake_anthropic, tmp_path):
    """The caller ran its own tools only: the client adds the compact call's result itself, so the request
    is valid, and compacts after it."""
    call = {"type": "tool_use", "id": "toolu_c", "name": "compact", "input": {}}
    read = {"type": "tool_use", "id": "toolu_r", "name": "read_file", "input": {"path": "a.py"}}
    fake_anthropic.enqueue(200, assistant_body([read, call], "tool_use", USAGE))
    client = client_for(fake_anthropic, tmp_path, trace=tmp_path / "trace.jsonl")
    messages = history(1)
    response = create(client, messages)
    messages += [{"role": "assistant", "content": response.content},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_r", "content": "ok"}]}]
    create(client, messages)
    [summary] = fake_anthropic.bodies()[1]["messages"]
    assert summary["content"].startswith("[Compacted]")
    line = json.loads((tmp_path / "trace.jsonl").read_text().splitlines()[2])
    answered = line["new_messages"][1]["content"]
    assert {"type": "tool_result", "tool_use_id": "toolu_c", "content": COMPACT_RESULT} in answered
    assert line["acted"][0] == "compact_tool"


def test_the_beta_messages_carry_the_request_as_given(fake_anthropic, tmp_path):
    edits = {"edits": [{"type": "clear_tool_uses_20250919", "trigger": {"type": "input_tokens", "value": 50_000}}]}
    client = client_for(fake_anthropic, tmp_path, strategy="anthropic-clear-tool-uses")
    client.beta.messages.create(model="claude-fake", max_tokens=100, messages=history(1), context_management=edits,
                                betas=["context-management-2025-06-27"])
    [request] = fake_anthropic.requests
    assert request.body["context_management"] == edits
    assert "context-management-2025-06-27" in request.headers["anthropic-beta"]


@pytest.mark.parametrize("kwargs, words", [
    ({"strategy": "no-such-strategy"}, "unknown strategy 'no-such-strategy'"),
    ({"settings": {"context_limt": 5}}, "has no setting or parameter 'context_limt'"),
    ({"strategy": "masking", "settings": {"window": -1}}, "masking: window must be"),
    ({"settings": {"keep_recent": "3"}}, "keep_recent must be a whole number"),
])
def test_bad_settings_are_named(fake_anthropic, tmp_path, kwargs, words):
    with pytest.raises(SettingsError, match=words):
        client_for(fake_anthropic, tmp_path, **kwargs)


def test_bad_calls_are_refused_with_a_sentence(fake_anthropic, tmp_path):
    client = client_for(fake_anthropic, tmp_path)
    with pytest.raises(SettingsError, match="does not stream"):
        create(client, history(1), stream=True)
    with pytest.raises(SettingsError, match="needs messages="):
        client.messages.create(model="claude-fake", max_tokens=10)
    with pytest.raises(ConversationError, match=r"messages\[1\]: role must be 'user' or 'assistant'"):
        create(client, [{"role": "user", "content": "a"}, {"role": "system", "content": "b"}])
    create(client, history(2))
    with pytest.raises(ConversationError, match="fewer than the 5 this client has already seen"):
        create(client, history(1))
    with pytest.raises(ConversationError, match=r"messages\[0\]: message 0 is not the one passed before"):
        create(client, [{"role": "user", "content": "Another task."}, *history(2)[1:]])
    client.reset()
    create(client, [{"role": "user", "content": "Another task."}])
    assert not fake_anthropic.requests[-1].body["messages"][0]["content"].startswith("Read")
    assert all(r.path == MESSAGES for r in fake_anthropic.requests)


def test_the_trace_names_the_strategy_and_writes_only_originals_by_index(fake_anthropic, tmp_path):
    client = client_for(fake_anthropic, tmp_path, settings={"keep_recent": 1, "context_limit": 20_000},
                        trace=tmp_path / "trace.jsonl")
    create(client, history(4), system="You are terse.")
    header, line = (json.loads(text) for text in (tmp_path / "trace.jsonl").read_text().splitlines())
    assert header["type"] == "compaction-trace" and header["strategy"] == "pipeline"
    assert header["settings"]["keep_recent"] == 1 and header["settings"]["context_limit"] == 20_000
    assert line["system"] == "You are terse." and line["acted"] == ["L2"]
    kinds = [type(item).__name__ for item in line["sent"]]
    assert kinds.count("dict") == 3 and kinds.count("int") == 6  # the three results that got a placeholder
    assert line["usage"]["input_tokens"] == 10 and line["before_chars"] > line["sent_chars"]
