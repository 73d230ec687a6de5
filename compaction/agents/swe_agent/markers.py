"""The text SWE-agent's LastNObservations leaves for an old tool output (the hybrid's masking)."""


ELIDED_OPENING = "Old environment output: ("


def elided_output(lines: int) -> str:
    return f"{ELIDED_OPENING}{lines} lines omitted)"
