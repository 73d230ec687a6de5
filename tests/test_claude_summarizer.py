"""ClaudeSummarizer through the real SDK over HTTP against the local fake Messages API."""

import copy
import traceback
import warnings

import pytest

from compaction.errors import SummarizerError
from compaction.llm.client import DEFAULT_MODEL
from compaction.summarizers.base import SUMMARY_PROMPT, summary_input
from compaction.summarizers.claude import ClaudeSummarizer
from tests.fake_anthropic import MESSAGES

KEY = "sk-ant-api03-summarizer-test-0987654321"
HISTORY = [
    {"role": "user", "content": "Fix the failing parser test in src/parse.py"},
    {"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "src/parse.py"}}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "def parse(): ..."}]},
]


def summarizer(fake, **kw) -> ClaudeSummarizer:
    return ClaudeSummarizer(api_key=KEY, base_url=fake.url, **{"max_retries": 0, "timeout": 5.0, **kw})


def test_sends_the_seed_prompt_and_returns_the_text(fake_anthropic):
    fake_anthropic.reply("## Current goal\nFix the parser.")
    before = copy.deepcopy(HISTORY)
    assert summarizer(fake_anthropic).summarize(HISTORY) == "## Current goal\nFix the parser."
    assert before == HISTORY
    [sent] = fake_anthropic.requests
    assert sent.path == MESSAGES
    assert sent.api_key == KEY
    assert "anthropic-version" in sent.headers
    assert sent.body["model"] == DEFAULT_MODEL
    assert sent.body["max_tokens"] == 2000
    assert sent.body["messages"] == [{"role": "user", "content": SUMMARY_PROMPT + summary_input(HISTORY, 80000)}]


def test_focus_goes_between_the_prompt_and_the_history(fake_anthropic):
    summarizer(fake_anthropic).summarize(HISTORY, focus="  the parser tests ")
    content = fake_anthropic.bodies()[0]["messages"][0]["content"]
    assert content == SUMMARY_PROMPT + "Focus on: the parser tests\n\n" + summary_input(HISTORY, 80000)


def test_input_cap_and_max_tokens_are_sent_as_configured(fake_anthropic):
    summarizer(fake_anthropic, input_cap=50, max_tokens=123).summarize(HISTORY)
    body = fake_anthropic.bodies()[0]
    assert body["max_tokens"] == 123
    assert body["messages"][0]["content"] == SUMMARY_PROMPT + summary_input(HISTORY, 80000)[:50]


@pytest.mark.parametrize("text", [None, "", "   \n"])
def test_a_reply_without_text_gives_the_empty_summary(fake_anthropic, text):
    fake_anthropic.reply(text)
    assert summarizer(fake_anthropic).summarize(HISTORY) == "(empty summary)"


def test_text_blocks_are_joined_and_other_blocks_ignored(fake_anthropic):
    reply = {"id": "msg_x", "type": "message", "role": "assistant", "model": DEFAULT_MODEL,
             "stop_reason": "end_turn", "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 2},
             "content": [{"type": "thinking", "thinking": "hmm", "signature": "s"},
                         {"type": "text", "text": "Goal: A. "}, {"type": "text", "text": "Next: B."}]}
    fake_anthropic.enqueue(200, reply)
    assert summarizer(fake_anthropic).summarize(HISTORY) == "Goal: A. Next: B."


def test_key_and_endpoint_come_from_the_environment(fake_anthropic, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_anthropic.url)
    assert ClaudeSummarizer(max_retries=0).summarize(HISTORY) == "Fake summary number 1."
    assert fake_anthropic.requests[0].api_key == KEY


def test_model_name_default_and_env_override(fake_anthropic, monkeypatch):
    assert summarizer(fake_anthropic).name == f"claude:{DEFAULT_MODEL}"
    monkeypatch.setenv("COMPACTION_CLAUDE_MODEL", "claude-haiku-4-5")
    chosen = summarizer(fake_anthropic)
    assert chosen.name == "claude:claude-haiku-4-5"
    chosen.summarize(HISTORY)
    assert fake_anthropic.bodies()[0]["model"] == "claude-haiku-4-5"
    assert summarizer(fake_anthropic, model="claude-opus-4-8").name == "claude:claude-opus-4-8"


def test_the_default_model_is_not_deprecated_in_the_sdk(fake_anthropic):
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        summarizer(fake_anthropic).summarize(HISTORY)


def test_no_key_is_a_clear_error_and_sends_nothing(fake_anthropic):
    with pytest.raises(SummarizerError, match="ANTHROPIC_API_KEY"):
        ClaudeSummarizer(base_url=fake_anthropic.url).summarize(HISTORY)
    with pytest.raises(SummarizerError, match="No Anthropic API key"):
        ClaudeSummarizer(api_key="  ", base_url=fake_anthropic.url).summarize(HISTORY)
    assert fake_anthropic.requests == []


def assert_key_hidden(err: SummarizerError) -> None:
    assert KEY not in str(err)
    assert KEY not in "".join(traceback.format_exception(err))
    assert KEY not in repr(err)


@pytest.mark.parametrize(("status", "phrase"), [
    (401, "rejected the API key"), (403, "not allowed"), (404, "model name"), (429, "Rate limited"),
    (500, "server error"), (502, "server error"), (529, "overloaded"),
])
def test_http_failures_become_summarizer_errors_without_the_key(fake_anthropic, status, phrase):
    fake_anthropic.error(status, f"request with key {KEY} failed")  # worst case: the server echoes the key
    with pytest.raises(SummarizerError) as caught:
        summarizer(fake_anthropic).summarize(HISTORY)
    assert str(caught.value).startswith("Claude summary failed: ")
    assert phrase in str(caught.value) and f"HTTP {status}" in str(caught.value)
    assert_key_hidden(caught.value)


def test_prompt_too_long_is_reported_with_the_numbers(fake_anthropic):
    fake_anthropic.prompt_too_long()
    with pytest.raises(SummarizerError, match=r"too long for the model \(208656 tokens > 200000 maximum\)"):
        summarizer(fake_anthropic).summarize(HISTORY)


def test_a_slow_server_times_out(fake_anthropic):
    fake_anthropic.slow(30.0)  # cut short when the fixture closes the server
    with pytest.raises(SummarizerError, match="timed out") as caught:
        summarizer(fake_anthropic, timeout=0.3).summarize(HISTORY)
    assert_key_hidden(caught.value)


def test_connection_refused(free_port):
    failing = ClaudeSummarizer(api_key=KEY, base_url=f"http://127.0.0.1:{free_port}", max_retries=0)
    with pytest.raises(SummarizerError, match=f"Could not connect .*127.0.0.1:{free_port}") as caught:
        failing.summarize(HISTORY)
    assert_key_hidden(caught.value)


def test_retries_a_rate_limit_then_succeeds(fake_anthropic):
    fake_anthropic.error(429, "slow down", headers={"retry-after-ms": "1"})
    fake_anthropic.reply("after the retry")
    assert summarizer(fake_anthropic, max_retries=1).summarize(HISTORY) == "after the retry"
    assert len(fake_anthropic.requests) == 2


def test_repr_does_not_show_the_key(fake_anthropic):
    assert KEY not in repr(summarizer(fake_anthropic))
    assert "key=set" in repr(summarizer(fake_anthropic))
