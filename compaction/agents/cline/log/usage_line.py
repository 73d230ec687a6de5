"""The line Cline writes into each turn's environment details (task/index.ts getEnvironmentDetails):

    # Context Window Usage
    12,023 / 256K tokens used (5%)

the previous request's tokens (in + out + cache) and the window (contextWindow / 1000, in K). It is the
model's window as Cline used it, and where it falls from one turn to the next, Cline compacted between
them: an api_conversation_history.json keeps every message, so these falls are the only trace of its
compactions there."""

import re

LINE = re.compile(r"# Context Window Usage\n([\d,]+) / ([\d.,]+)K tokens used")


def usage_line(text: str) -> tuple[int, int] | None:
    """(tokens used, the window) of the newest such line in `text`, or None."""
    at = text.rfind("# Context Window Usage\n")
    found = LINE.match(text, at) if at >= 0 else None
    if found is None:
        return None
    try:
        return int(found.group(1).replace(",", "")), int(float(found.group(2).replace(",", "")) * 1000)
    except ValueError:
        return None
