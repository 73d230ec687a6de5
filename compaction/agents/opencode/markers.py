"""The words OpenCode's compaction leaves in the history (packages/opencode/src/session/message-v2.ts and
prompt.ts): the person's compaction turn as the model reads it, the text of a pruned tool output, and the
message OpenCode adds after an automatic compaction."""

SUMMARY_PREFIX = "What did we do so far?"  # message-v2.ts: a compaction part sent as the person's text
PRUNED = "[Old tool result content cleared]"  # message-v2.ts: a tool output whose state.time.compacted is set
CONTINUE = ("Continue if you have next steps, or stop and ask for clarification if you are unsure how to "
            "proceed.")  # the synthetic user message after an automatic compaction
