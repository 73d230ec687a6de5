"""The texts the three extensions leave in a history when they compact (Cline's formatResponse
contextTruncationNotice and summarize_task continuation; Roo Code's and Kilo Code's summary heading and
sliding-window marker, src/core/condense and src/core/context-management)."""

TRUNCATION_NOTICE = ("[NOTE] Some previous conversation history with the user has been removed to maintain optimal "
                     "context window length. The initial user task has been retained for continuity, while "
                     "intermediate conversation history has been removed. Keep this in mind as you continue "
                     "assisting the user. Pay special attention to the user's latest messages.")
SUMMARY_PREFIX = ("This session is being continued from a previous conversation that ran out of context. The "
                  "conversation is summarized below:")  # contextManagement.ts continuationPrompt
ROO_SUMMARY_PREFIX = "## Conversation Summary"
ROO_MARKER = "[Sliding window truncation: {count} messages hidden to reduce context]"
FILE_READ_NOTICE = ("[[NOTE] This file read has been removed to save space in the context window. Refer to the "
                    "latest file read for the most up to date version of this file.]")  # duplicateFileReadNotice
