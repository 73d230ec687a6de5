"""The texts compaction leaves in a history, so later passes (and the offline summariser) know them.

The lab's own and the generic peers' are here; each agent's package registers its own summary's opening
words (register_summary_prefix) and the opening words of what it leaves for a dropped tool result
(register_placeholder).
"""

from compaction.model.messages import Message

COMPACTED_PREFIX = "[Compacted]"  # L4 and the compact tool
REACTIVE_PREFIX = "[Reactive compact]"  # after the API refused a prompt as too long
KEEP_LAST_SUMMARY_PREFIX = "[Summary of earlier conversation]"  # the keep-last-N + summary strategy
COMPACTION_BLOCK_PREFIX = "[Compaction block]"  # Anthropic's compact_20260112, shown as a message
LANGCHAIN_SUMMARY_PREFIX = "Here is a summary of the conversation to date:"  # LangChain's own words
TURNS_SUMMARY_PREFIX = "[Summary of earlier turns]"  # the hybrid's summary every N turns
SNIP_PREFIX = "[snipped "
PLACEHOLDER = "[Earlier tool result compacted. Re-run if needed.]"
MASK = "<MASKED>"  # observation masking's text (as the condensers that mask write it)
API_CLEARED = "[tool result cleared]"  # stands in for clear_tool_uses' placeholder, whose text is not documented
LANGCHAIN_CLEARED = "[cleared]"  # ClearToolUsesEdit's default placeholder
PERSISTED_PREFIX = "<persisted-output>"  # L3's preview of an output saved to disk (an agent may write the same)

_summary_prefixes: tuple[str, ...] = (COMPACTED_PREFIX, REACTIVE_PREFIX, KEEP_LAST_SUMMARY_PREFIX,
                                      COMPACTION_BLOCK_PREFIX, LANGCHAIN_SUMMARY_PREFIX, TURNS_SUMMARY_PREFIX)


def register_summary_prefix(prefix: str) -> str:
    """Enter the words an agent's summary message opens with, so every pass knows it for a summary."""
    global _summary_prefixes
    if prefix not in _summary_prefixes:
        _summary_prefixes = (*_summary_prefixes, prefix)
    return prefix


_placeholder_openings: tuple[str, ...] = (PLACEHOLDER, MASK, API_CLEARED, LANGCHAIN_CLEARED, SNIP_PREFIX)


def register_placeholder(opening: str) -> str:
    """Enter the words a text left in place of something dropped opens with (an agent's cleared result)."""
    global _placeholder_openings
    if opening not in _placeholder_openings:
        _placeholder_openings = (*_placeholder_openings, opening)
    return opening


def is_placeholder_text(text: str) -> bool:
    """Whether `text` stands in for something compaction dropped: a placeholder, a mask, a snip marker."""
    return text.startswith(_placeholder_openings)


def summary_prefixes() -> tuple[str, ...]:
    return _summary_prefixes


def is_summary(message: Message) -> bool:
    content = message.get("content")
    return message.get("role") == "user" and isinstance(content, str) and content.startswith(_summary_prefixes)


def summary_body(message: Message) -> str:
    """The summary text of a summary message, without its prefix line."""
    return str(message.get("content", "")).split("\n\n", 1)[-1]
