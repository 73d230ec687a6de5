"""The exact token count of a request, from the API (`count_tokens`), when a key is set; every estimate
goes through compaction.model.tokens instead."""

from compaction.errors import CompactionError
from compaction.llm.api_errors import describe_failure
from compaction.llm.client import DEFAULT_MAX_RETRIES, NO_KEY_MESSAGE, default_model, make_client, resolve_key
from compaction.llm.sdk import require_sdk
from compaction.model.messages import Message

__all__ = ["TokenCountError", "exact_tokens"]


class TokenCountError(CompactionError):
    """The exact count could not be had (no key, or the API failed); the message is for a person."""


def exact_tokens(
    messages: list[Message],
    system: str | list[dict] | None = None,
    tools: list[dict] | None = None,
    api_key: str | None = None,
    base_url: str | None = None,
    model: str | None = None,
    timeout: float = 30.0,
    max_retries: int = DEFAULT_MAX_RETRIES,
) -> int:
    """Input tokens of this request as the API counts them (`POST /v1/messages/count_tokens`).

    Key, endpoint and model fall back as for ClaudeSummarizer. Raises TokenCountError on any failure;
    its message never contains the key.
    """
    key = resolve_key(api_key)
    if key is None:
        raise TokenCountError(NO_KEY_MESSAGE)
    extra = {}
    if system is not None:
        extra["system"] = system
    if tools is not None:
        extra["tools"] = tools
    client = make_client(key, base_url, timeout, max_retries)
    try:
        with client:
            result = client.messages.count_tokens(model=model or default_model(), messages=messages, **extra)
    except require_sdk().AnthropicError as exc:
        raise TokenCountError(f"Token count failed: {describe_failure(exc, key)}") from None
    return int(result.input_tokens)
