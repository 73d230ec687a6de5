"""The text SWE-agent's LastNObservations leaves for an old tool output (the hybrid's masking)."""


def elided_output(lines: int) -> str:
    return f"Old environment output: ({lines} lines omitted)"
