"""L4 / reactive-compact summariser that asks Claude, with the tutorial's prompt and input cap."""

import anthropic

from ..anthropic_client import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    NO_KEY_MESSAGE,
    default_model,
    make_client,
    resolve_key,
)
from ..api_errors import describe_failure
from ..errors import SummarizerError
from ..messages import Message
from .base import EMPTY_SUMMARY, SUMMARY_PROMPT, summary_input


class ClaudeSummarizer:
    """Summarises a history through the Messages API.

    `api_key` falls back to ANTHROPIC_API_KEY, `base_url` to ANTHROPIC_BASE_URL, `model` to
    COMPACTION_CLAUDE_MODEL and then `anthropic_client.DEFAULT_MODEL`. A missing key is reported by
    `summarize` (not here) so the object can be built before the user has entered one.
    Every failure becomes SummarizerError with a message for a person that never contains the key.
    """

    def __init__(
        self,
        api_key: str | None = None,
        base_url: str | None = None,
        model: str | None = None,
        max_tokens: int = 2000,
        input_cap: int = 80000,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
    ):
        self.model = model or default_model()
        self.name = f"claude:{self.model}"
        self.max_tokens = max_tokens
        self.input_cap = input_cap
        self._key = resolve_key(api_key)
        self._client = make_client(self._key, base_url, timeout, max_retries) if self._key else None

    def __repr__(self) -> str:  # the default repr would not leak the key, but say so explicitly
        return f"ClaudeSummarizer(model={self.model!r}, key={'set' if self._key else 'missing'})"

    def prompt(self, messages: list[Message], focus: str | None = None) -> str:
        """The user message sent: the seed's prompt, an optional focus line, then the capped history."""
        focus_line = f"Focus on: {focus.strip()}\n\n" if focus and focus.strip() else ""
        return SUMMARY_PROMPT + focus_line + summary_input(messages, self.input_cap)

    def summarize(self, messages: list[Message], focus: str | None = None) -> str:
        if self._client is None:
            raise SummarizerError(NO_KEY_MESSAGE)
        try:
            reply = self._client.messages.create(
                model=self.model,
                max_tokens=self.max_tokens,
                messages=[{"role": "user", "content": self.prompt(messages, focus)}],
            )
        except anthropic.AnthropicError as exc:
            # `from None`: the SDK error's text embeds the raw response body, which we do not vet.
            raise SummarizerError(f"Claude summary failed: {describe_failure(exc, self._key)}") from None
        text = "".join(block.text for block in reply.content if getattr(block, "type", None) == "text")
        return text.strip() or EMPTY_SUMMARY
