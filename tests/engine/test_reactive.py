"""Reactive compaction over the real SDK and a local Messages API server, and the compact tool."""

import anthropic
import pytest

from compaction import OutputStore, Settings, check_pairs
from compaction.layers.compact_tool import COMPACT_RESULT, COMPACT_TOOL, handle_compact_turn
from compaction.layers.reactive import reactive_compact, reactive_cut, send_with_reactive_compact

from .builders import call, results, turns, user


def test_cut_keeps_the_last_five_without_splitting_a_pair():
    messages = turns(10)  # 21 messages: user, then call/result pairs
    assert reactive_cut(messages, 5) == 15  # 16 is a result: its call at 15 comes along
    out = reactive_compact(messages, Settings(), store=OutputStore.temporary())
    assert out.messages[0]["content"].startswith("[Reactive compact]\n\n")
    assert out.messages[1:] == messages[15:]
    assert check_pairs(out.messages) == []


def make_sender(server):
    client = anthropic.Anthropic(api_key="sk-test", base_url=server.url, max_retries=0)

    def send(messages):
        return client.messages.create(model="claude-fake", max_tokens=100, messages=messages)

    return send


def test_prompt_too_long_compacts_and_retries_once(fake_anthropic, tmp_path):
    fake_anthropic.prompt_too_long()
    fake_anthropic.reply("done")
    messages = turns(10)
    response, compaction = send_with_reactive_compact(make_sender(fake_anthropic), messages,
                                                      store=OutputStore(tmp_path))
    assert response.content[0].text == "done"
    assert "208,656 tokens > 200,000 maximum" in compaction.events[0].reason
    sent = fake_anthropic.bodies()
    assert len(sent[0]["messages"]) == 21 and len(sent[1]["messages"]) == 7
    assert sent[1]["messages"][0]["content"].startswith("[Reactive compact]")


def test_other_errors_are_not_compacted(fake_anthropic, tmp_path):
    fake_anthropic.error(400, "messages: roles must alternate")
    with pytest.raises(anthropic.BadRequestError):
        send_with_reactive_compact(make_sender(fake_anthropic), turns(3), store=OutputStore(tmp_path))
    assert len(fake_anthropic.bodies()) == 1


def test_a_second_refusal_is_raised_not_looped(fake_anthropic, tmp_path):
    fake_anthropic.prompt_too_long()
    fake_anthropic.prompt_too_long()
    with pytest.raises(anthropic.BadRequestError):
        send_with_reactive_compact(make_sender(fake_anthropic), turns(10), store=OutputStore(tmp_path))
    assert len(fake_anthropic.bodies()) == 2


def test_compact_tool_answers_the_call_before_compacting(tmp_path):
    history = turns(4)
    assistant = {"role": "assistant", "content": [
        {"type": "tool_use", "id": "c1", "name": "compact", "input": {"focus": "the CLI flag"}},
        {"type": "tool_use", "id": "r9", "name": "read_file", "input": {"path": "a.py"}}]}
    out = handle_compact_turn(history, assistant, [results(("r9", "text"))["content"][0]],
                              store=OutputStore(tmp_path))
    assert len(out.messages) == 1 and check_pairs(out.messages) == []
    assert "Focus requested: the CLI flag" in out.messages[0]["content"]
    transcript = out.events[0].transcript_path.read_text()
    assert COMPACT_RESULT in transcript and '"tool_use_id": "c1"' in transcript
    assert COMPACT_TOOL["input_schema"]["properties"] == {"focus": {"type": "string"}}


def test_compact_tool_needs_a_compact_call():
    with pytest.raises(ValueError, match="no compact tool call"):
        handle_compact_turn([user()], call("x"), [])


def test_nothing_before_the_kept_tail_means_no_reactive_summary(tmp_path):
    short = turns(2)  # 5 messages: all of them are kept
    out = reactive_compact(short, Settings(), store=OutputStore(tmp_path))
    assert out.messages == short and out.events == []
    summarised = reactive_compact(turns(10), Settings(), store=OutputStore(tmp_path)).messages
    again = reactive_compact(summarised, Settings(), store=OutputStore(tmp_path))
    assert again.events == []  # only the earlier summary before the tail: summarising it again adds nothing


def test_replay_over_the_window_with_nothing_left_to_summarise_says_so(tmp_path):
    from compaction.replay.loop import replay

    messages = [user("x" * 1_000_000), {"role": "assistant", "content": "ok"}, user("again"),
                {"role": "assistant", "content": "ok"}]
    result = replay(messages, Settings(context_limit=10_000_000), store=OutputStore(tmp_path), model_window_tokens=1_000)
    assert [c.acted for c in result.calls] == [(), ()]
    assert all(c.over_window for c in result.calls) and result.totals["summaries"] == 0
