"""The texts Claude Code leaves in a history: its summary's opening words and microcompact's placeholder."""

SUMMARY_PREFIX = ("This session is being continued from a previous conversation that ran out of "
                  "context. The conversation is summarized below:")
CLEARED = "[Old tool result content cleared]"  # microcompact's text for an old tool result
