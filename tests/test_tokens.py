"""Token counts: the chars/4 estimate, and exact counts through the SDK against the local fake API."""

import pytest

from compaction.llm.client import DEFAULT_MODEL
from compaction.llm.token_count import TokenCountError, exact_tokens
from compaction.model.tokens import estimate_tokens
from tests.fake_anthropic import COUNT_TOKENS

KEY = "sk-ant-api03-tokens-test-5555"
MESSAGES = [{"role": "user", "content": "How long is this conversation?"}]
TOOLS = [{"name": "compact", "description": "Summarize earlier conversation to free context space.",
          "input_schema": {"type": "object", "properties": {"focus": {"type": "string"}}}}]


@pytest.mark.parametrize(("chars", "tokens"), [(0, 0), (1, 1), (4, 1), (5, 2), (8, 2), (697_000, 174_250)])
def test_estimate_is_chars_over_four_rounded_up(chars, tokens):
    assert estimate_tokens(chars) == tokens


def test_exact_count_comes_from_the_count_tokens_endpoint(fake_anthropic):
    count = exact_tokens(MESSAGES, api_key=KEY, base_url=fake_anthropic.url, max_retries=0)
    [sent] = fake_anthropic.requests
    assert sent.path == COUNT_TOKENS
    assert sent.api_key == KEY
    assert count == -(-len(sent.raw) // 4)  # what the fake answers for this body
    assert sent.body == {"model": DEFAULT_MODEL, "messages": MESSAGES}


def test_system_tools_and_model_are_sent(fake_anthropic):
    fake_anthropic.enqueue(200, {"input_tokens": 4321}, path=COUNT_TOKENS)
    count = exact_tokens(MESSAGES, system="You are terse.", tools=TOOLS, api_key=KEY,
                         base_url=fake_anthropic.url, model="claude-haiku-4-5", max_retries=0)
    assert count == 4321
    body = fake_anthropic.bodies(COUNT_TOKENS)[0]
    assert (body["system"], body["tools"], body["model"]) == ("You are terse.", TOOLS, "claude-haiku-4-5")


def test_key_endpoint_and_model_come_from_the_environment(fake_anthropic, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_anthropic.url)
    monkeypatch.setenv("COMPACTION_CLAUDE_MODEL", "claude-opus-4-8")
    fake_anthropic.enqueue(200, {"input_tokens": 17}, path=COUNT_TOKENS)
    assert exact_tokens(MESSAGES, max_retries=0) == 17
    [sent] = fake_anthropic.requests
    assert (sent.api_key, sent.body["model"]) == (KEY, "claude-opus-4-8")


def test_no_key_is_a_clear_error_and_sends_nothing(fake_anthropic):
    with pytest.raises(TokenCountError, match="No Anthropic API key"):
        exact_tokens(MESSAGES, base_url=fake_anthropic.url)
    assert fake_anthropic.requests == []


def test_api_failure_is_plain_and_hides_the_key(fake_anthropic):
    fake_anthropic.error(401, f"invalid x-api-key {KEY}", path=COUNT_TOKENS)
    with pytest.raises(TokenCountError, match=r"rejected the API key \(HTTP 401\)") as caught:
        exact_tokens(MESSAGES, api_key=KEY, base_url=fake_anthropic.url, max_retries=0)
    assert KEY not in str(caught.value)


def test_too_long_for_counting_reports_the_numbers(fake_anthropic):
    fake_anthropic.prompt_too_long(path=COUNT_TOKENS)
    with pytest.raises(TokenCountError, match="208656 tokens > 200000 maximum"):
        exact_tokens(MESSAGES, api_key=KEY, base_url=fake_anthropic.url, max_retries=0)


def test_connection_refused(free_port):
    with pytest.raises(TokenCountError, match="Could not connect"):
        exact_tokens(MESSAGES, api_key=KEY, base_url=f"http://127.0.0.1:{free_port}", max_retries=0)
