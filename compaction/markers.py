"""The texts compaction leaves in a history, so later passes (and the offline summariser) know them."""

from .messages import Message

COMPACTED_PREFIX = "[Compacted]"  # L4 and the compact tool
REACTIVE_PREFIX = "[Reactive compact]"  # after the API refused a prompt as too long
KEEP_LAST_SUMMARY_PREFIX = "[Summary of earlier conversation]"  # the keep-last-N + summary strategy
SUMMARY_PREFIXES = (COMPACTED_PREFIX, REACTIVE_PREFIX, KEEP_LAST_SUMMARY_PREFIX)
SNIP_PREFIX = "[snipped "
PLACEHOLDER = "[Earlier tool result compacted. Re-run if needed.]"
MASK = "<MASKED>"  # OpenHands' observation-masking text


def is_summary(message: Message) -> bool:
    content = message.get("content")
    return message.get("role") == "user" and isinstance(content, str) and content.startswith(SUMMARY_PREFIXES)


def summary_body(message: Message) -> str:
    """The summary text of a summary message, without its prefix line."""
    return str(message.get("content", "")).split("\n\n", 1)[-1]
