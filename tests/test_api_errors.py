"""prompt_too_long and describe_failure on real SDK exceptions, raised by the SDK over HTTP."""

import anthropic
import pytest

from compaction.llm.api_errors import describe_failure, prompt_too_long, scrub
from compaction.llm.client import DEFAULT_MODEL
from tests.fake_anthropic import PROMPT_TOO_LONG_BODY, error_body

KEY = "sk-ant-api03-test-key-1234567890"


def sdk_error(url: str) -> anthropic.APIError:
    """The exception the real SDK raises for one call to `url`."""
    client = anthropic.Anthropic(api_key=KEY, base_url=url, max_retries=0, timeout=5)
    with pytest.raises(anthropic.APIError) as caught:
        client.messages.create(model=DEFAULT_MODEL, max_tokens=10, messages=[{"role": "user", "content": "hi"}])
    return caught.value


def test_the_real_prompt_too_long_error_gives_tokens_and_maximum(fake_anthropic):
    fake_anthropic.prompt_too_long()
    exc = sdk_error(fake_anthropic.url)
    assert isinstance(exc, anthropic.BadRequestError)
    assert prompt_too_long(exc) == (208656, 200000)


def test_prompt_too_long_without_numbers_still_matches(fake_anthropic):
    fake_anthropic.error(400, "prompt is too long")
    assert prompt_too_long(sdk_error(fake_anthropic.url)) == (0, 0)


@pytest.mark.parametrize("message", [
    "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01",
    "max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens",
    "prompt_too_long",  # the tutorial's guess, which the real API never sends
])
def test_other_400s_do_not_match(fake_anthropic, message):
    fake_anthropic.error(400, message)
    exc = sdk_error(fake_anthropic.url)
    assert isinstance(exc, anthropic.BadRequestError)
    assert prompt_too_long(exc) is None


@pytest.mark.parametrize("status", [401, 413, 429, 500, 529])
def test_other_statuses_with_the_same_text_do_not_match(fake_anthropic, status):
    fake_anthropic.enqueue(status, PROMPT_TOO_LONG_BODY | {"error": error_body(status, "prompt is too long")["error"]})
    exc = sdk_error(fake_anthropic.url)
    assert exc.status_code == status
    assert prompt_too_long(exc) is None


def test_non_api_errors_do_not_match(free_port):
    assert prompt_too_long(ValueError("prompt is too long: 5 tokens > 4 maximum")) is None
    exc = sdk_error(f"http://127.0.0.1:{free_port}")
    assert isinstance(exc, anthropic.APIConnectionError)
    assert prompt_too_long(exc) is None


@pytest.mark.parametrize(("status", "phrase"), [
    (401, "rejected the API key"), (403, "not allowed"), (404, "check the model name"),
    (429, "Rate limited"), (500, "server error"), (503, "server error"), (529, "overloaded"),
    (400, "refused the request"),
])
def test_each_status_gets_a_plain_message_without_the_key(fake_anthropic, status, phrase):
    fake_anthropic.error(status, f"bad things happened to {KEY}")  # a server that echoes the key
    text = describe_failure(sdk_error(fake_anthropic.url), KEY)
    assert phrase in text
    assert f"HTTP {status}" in text
    assert "bad things happened" in text  # the API's own words are kept for the person
    assert KEY not in text


def test_connection_refused_names_the_endpoint(free_port):
    text = describe_failure(sdk_error(f"http://127.0.0.1:{free_port}"), KEY)
    assert text.startswith("Could not connect")
    assert f"127.0.0.1:{free_port}" in text


def test_scrub_hides_the_given_secret_and_key_shaped_text():
    assert scrub(f"x {KEY} y", KEY) == "x *** y"
    assert scrub("leaked sk-ant-other-KEY_99 here", None) == "leaked *** here"
    assert scrub("nothing secret", "abc123") == "nothing secret"
