"""The words Pi wraps its summaries in when it sends them (packages/coding-agent/src/core/messages.ts:
COMPACTION_SUMMARY_PREFIX and _SUFFIX, BRANCH_SUMMARY_PREFIX)."""

SUMMARY_PREFIX = "The conversation history before this point was compacted into the following summary:"
COMPACTION_OPENING = SUMMARY_PREFIX + "\n\n<summary>\n"
COMPACTION_CLOSING = "\n</summary>"
BRANCH_OPENING = "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"
BRANCH_CLOSING = "</summary>"
