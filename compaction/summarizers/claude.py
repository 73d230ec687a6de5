"""L4 / reactive-compact summariser that asks Claude, with the tutorial's prompt and input cap."""

from compaction.errors import SummarizerError
from compaction.llm.client import DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, NO_KEY_MESSAGE, ClaudeCaller
from compaction.model.messages import Message
from compaction.summarizers.base import EMPTY_SUMMARY, SUMMARY_PROMPT, summary_input


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
        self._claude = ClaudeCaller(api_key, base_url, model, timeout, max_retries)
        self.model = self._claude.model
        self.name = f"claude:{self.model}"
        self.max_tokens = max_tokens
        self.input_cap = input_cap

    def __repr__(self) -> str:  # the default repr would not leak the key, but say so explicitly
        return f"ClaudeSummarizer(model={self.model!r}, key={'set' if self._claude.has_key else 'missing'})"

    def prompt(self, messages: list[Message], focus: str | None = None) -> str:
        """The user message sent: the seed's prompt, an optional focus line, then the capped history."""
        focus_line = f"Focus on: {focus.strip()}\n\n" if focus and focus.strip() else ""
        return SUMMARY_PROMPT + focus_line + summary_input(messages, self.input_cap)

    def summarize(self, messages: list[Message], focus: str | None = None) -> str:
        if not self._claude.has_key:
            raise SummarizerError(NO_KEY_MESSAGE)
        text = self._claude.ask(self.prompt(messages, focus), self.max_tokens, SummarizerError, "Claude summary")
        return text.strip() or EMPTY_SUMMARY
