"""The words Goose writes around its compaction (crates/goose/src/context_mgmt/mod.rs): the assistant
message it puts after the summary, which opens the same way in each of its three forms."""

CONTINUATION_PREFIX = "Your context was compacted"
CONVERSATION_CONTINUATION = ("Your context was compacted. The previous message contains a summary of the conversation "
                             "so far.\nDo not mention that you read a summary or that conversation summarization "
                             "occurred.\nJust continue the conversation naturally based on the summarized context.")
TOOL_LOOP_CONTINUATION = ("Your context was compacted. The previous message contains a summary of the conversation so "
                          "far.\nDo not mention that you read a summary or that conversation summarization occurred."
                          "\nContinue calling tools as necessary to complete the task.")
SUMMARY_PREFIX = "Summary of the conversation so far:"  # the replay's summary message (Goose's has no fixed opening)
