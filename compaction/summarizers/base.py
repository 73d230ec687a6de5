"""The summariser interface and the prompt the tutorial sends to the LLM."""

import json
from typing import Protocol

from compaction.model.messages import Message

SUMMARY_PROMPT = (
    "Summarize this coding-agent conversation so work can continue.\n"
    "Preserve:\n"
    "1. The current goal\n"
    "2. Important findings and decisions\n"
    "3. Files read or changed\n"
    "4. Remaining work\n"
    "5. User constraints and preferences\n"
    "Be compact but concrete.\n\n"
)

EMPTY_SUMMARY = "(empty summary)"


class Summarizer(Protocol):
    """Turns a history into one summary text.

    `name` is shown to users ("offline", "claude:<model>"). `summarize` raises SummarizerError with a
    message for a person when it cannot produce a summary; it never changes `messages`.
    """

    name: str

    def summarize(self, messages: list[Message], focus: str | None = None) -> str: ...


def summary_input(messages: list[Message], cap: int) -> str:
    """What the tutorial sends to the LLM: the JSON of the history, cut to `cap` characters."""
    return json.dumps(messages, default=str, ensure_ascii=False)[:cap]
