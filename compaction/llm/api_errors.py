"""Reading errors of the Anthropic SDK: the prompt-too-long signal, and messages for a person.

The real API says a prompt is too long with HTTP 400 and the body
{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208656 tokens > 200000 maximum"}}
(the tutorial's `prompt_too_long` / `too many tokens` never appear, so its reactive path never fires).
"""

import re

from compaction.llm.sdk import loaded_sdk

_TOO_LONG = re.compile(r"prompt is too long", re.IGNORECASE)
_COUNTS = re.compile(r"(\d+)\s*tokens?\s*>\s*(\d+)", re.IGNORECASE)
_KEY_LIKE = re.compile(r"sk-ant-[A-Za-z0-9_\-]+")


def _api_message(exc) -> str:
    """error.message of the body; the SDK's own message when the body is not the API's JSON."""
    message = getattr(exc, "api_message", None)
    if isinstance(message, str):
        return message
    body = exc.body
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        inner = body["error"].get("message")
        if isinstance(inner, str):
            return inner
    return exc.message or ""


def prompt_too_long(exc: BaseException) -> tuple[int, int] | None:
    """(tokens, maximum) when `exc` is the API's 400 "prompt is too long" error, else None.

    Gives (0, 0) when the text matches but carries no numbers. Any other error, including other 400s,
    gives None.
    """
    anthropic = loaded_sdk()
    if anthropic is None or not isinstance(exc, anthropic.APIStatusError) or exc.status_code != 400:
        return None
    text = _api_message(exc)
    if not _TOO_LONG.search(text):
        return None
    counts = _COUNTS.search(text)
    return (int(counts.group(1)), int(counts.group(2))) if counts else (0, 0)


def scrub(text: str, secret: str | None) -> str:
    """`text` with `secret` and anything shaped like an Anthropic key replaced by '***'."""
    if secret:
        text = text.replace(secret, "***")
    return _KEY_LIKE.sub("***", text)


def _detail(exc, secret: str | None) -> str:
    text = scrub(_api_message(exc).strip(), secret)
    if len(text) > 200:
        text = text[:200] + "..."
    return f" The API said: {text}" if text else ""


def describe_failure(exc: BaseException, secret: str | None = None) -> str:
    """One plain sentence or two saying what went wrong and what to do; never contains `secret`."""
    anthropic = loaded_sdk()
    if anthropic is None:
        return f"Unexpected error talking to the Anthropic API ({type(exc).__name__})."
    if isinstance(exc, anthropic.APITimeoutError):
        return "The request to the Anthropic API timed out. Try again, or raise the timeout."
    if isinstance(exc, anthropic.APIConnectionError):
        url = exc.request.url
        where = f"{url.scheme}://{url.host}" + (f":{url.port}" if url.port else "")
        return (
            f"Could not connect to the Anthropic API at {scrub(where, secret)}. "
            "Check the network and ANTHROPIC_BASE_URL."
        )
    if isinstance(exc, anthropic.APIStatusError):
        status = exc.status_code
        too_long = prompt_too_long(exc)
        if too_long is not None:
            tokens, maximum = too_long
            counts = f" ({tokens} tokens > {maximum} maximum)" if maximum else ""
            return f"The prompt is too long for the model{counts}."
        if status == 401:
            head = "The Anthropic API rejected the API key (HTTP 401). Check ANTHROPIC_API_KEY."
        elif status == 403:
            head = "The API key is not allowed to do this (HTTP 403): check the key's permissions and model."
        elif status == 404:
            head = "Not found (HTTP 404): check the model name and ANTHROPIC_BASE_URL."
        elif status == 429:
            head = "Rate limited by the Anthropic API (HTTP 429): wait a minute and try again."
        elif status == 529:
            head = "The Anthropic API is overloaded (HTTP 529): try again later."
        elif status >= 500:
            head = f"The Anthropic API had a server error (HTTP {status}): try again later."
        else:
            head = f"The Anthropic API refused the request (HTTP {status})."
        return head + _detail(exc, secret)
    if isinstance(exc, anthropic.AnthropicError):
        return f"The Anthropic SDK failed ({type(exc).__name__}): {scrub(str(exc), secret)[:200]}"
    return f"Unexpected error talking to the Anthropic API ({type(exc).__name__})."
