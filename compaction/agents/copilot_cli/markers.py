"""The words the replay opens a Copilot CLI summary with, and how Copilot's own checkpoint summaries open.

Copilot CLI is closed source: the text it puts before its checkpoint summary when it sends the compacted
history is not published. Its summaries themselves (`summaryContent` of session.compaction_complete in
real logs) open with an `<overview>` section, then `<history>` and more; the replay's summary opens with
its own words below."""

SUMMARY_PREFIX = "The conversation before this point was compacted into the following checkpoint summary:"
CHECKPOINT_OPENING = "<overview>"  # how real summaryContent values open
