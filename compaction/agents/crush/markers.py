"""How Crush's summary opens: internal/agent/templates/summary.md asks for "## Current State" first, and
Crush sends the summary as the person's message (agent.go getSessionMessages); and the prompt Crush puts
in the queue when it summarised in the middle of a turn (agent.go Run)."""

SUMMARY_PREFIX = "## Current State"
INTERRUPTED = "The previous session was interrupted because it got too long, the initial user request was: "
