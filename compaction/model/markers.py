"""The texts compaction leaves in a history, so later passes (and the offline summariser) know them."""

from compaction.model.messages import Message

COMPACTED_PREFIX = "[Compacted]"  # L4 and the compact tool
REACTIVE_PREFIX = "[Reactive compact]"  # after the API refused a prompt as too long
KEEP_LAST_SUMMARY_PREFIX = "[Summary of earlier conversation]"  # the keep-last-N + summary strategy
# the peers' summaries (compaction/strategies/); Claude Code's and LangChain's are their own words
CLAUDE_CODE_SUMMARY_PREFIX = ("This session is being continued from a previous conversation that ran out of "
                              "context. The conversation is summarized below:")
COMPACTION_BLOCK_PREFIX = "[Compaction block]"  # Anthropic's compact_20260112, shown as a message
LANGCHAIN_SUMMARY_PREFIX = "Here is a summary of the conversation to date:"
CONDENSATION_PREFIX = "[Condensation summary]"  # OpenHands' summary event carries no heading of its own
TURNS_SUMMARY_PREFIX = "[Summary of earlier turns]"  # the hybrid's summary every N turns
CODEX_SUMMARY_PREFIX = ("Another language model started to solve this problem and produced a summary of its thinking "
                        "process. You also have access to the state of the tools that were used by that language "
                        "model. Use this to build on the work that has already been done and avoid duplicating work. "
                        "Here is the summary produced by the other language model, use the information in this "
                        "summary to assist with your own analysis:")  # codex-rs templates/compact/summary_prefix.md
GEMINI_SUMMARY_PREFIX = "<state_snapshot>"  # gemini-cli's compression prompt asks for one
SUMMARY_PREFIXES = (COMPACTED_PREFIX, REACTIVE_PREFIX, KEEP_LAST_SUMMARY_PREFIX, CLAUDE_CODE_SUMMARY_PREFIX,
                    COMPACTION_BLOCK_PREFIX, LANGCHAIN_SUMMARY_PREFIX, CONDENSATION_PREFIX, TURNS_SUMMARY_PREFIX,
                    CODEX_SUMMARY_PREFIX, GEMINI_SUMMARY_PREFIX)
SNIP_PREFIX = "[snipped "
PLACEHOLDER = "[Earlier tool result compacted. Re-run if needed.]"
MASK = "<MASKED>"  # OpenHands' observation-masking text
CLAUDE_CODE_CLEARED = "[Old tool result content cleared]"  # Claude Code's microcompact
API_CLEARED = "[tool result cleared]"  # stands in for clear_tool_uses' placeholder, whose text is not documented
LANGCHAIN_CLEARED = "[cleared]"  # ClearToolUsesEdit's default placeholder
BROWSER_OMITTED = "Content omitted"  # OpenHands' browser-output masking (it names the URL first)


def elided_output(lines: int) -> str:
    """SWE-agent's LastNObservations text for an old tool output (the hybrid's masking)."""
    return f"Old environment output: ({lines} lines omitted)"


def is_summary(message: Message) -> bool:
    content = message.get("content")
    return message.get("role") == "user" and isinstance(content, str) and content.startswith(SUMMARY_PREFIXES)


def summary_body(message: Message) -> str:
    """The summary text of a summary message, without its prefix line."""
    return str(message.get("content", "")).split("\n\n", 1)[-1]
