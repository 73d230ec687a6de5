"""How Gemini CLI's summary opens: its compression prompt asks for a state snapshot."""

SUMMARY_PREFIX = "<state_snapshot>"
