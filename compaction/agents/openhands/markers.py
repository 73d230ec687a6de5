"""The texts OpenHands' condensers leave in a history."""

CONDENSATION_PREFIX = "[Condensation summary]"  # its summary event carries no heading of its own
BROWSER_OMITTED = "Content omitted"  # browser-output masking (it names the URL first)
