"""The unit switch: sizes in characters (as the tutorial counts) or estimated tokens (characters / 4)."""

from compaction.sizes import estimate_tokens

CHARS = "chars"
TOKENS = "tokens"
UNITS = (CHARS, TOKENS)
UNIT_LABELS = {CHARS: "characters", TOKENS: "estimated tokens"}
SHORT = {CHARS: "chars", TOKENS: "~tokens"}


def convert(chars: int, unit: str) -> int:
    """A size in characters expressed in `unit`."""
    return estimate_tokens(chars) if unit == TOKENS else chars


def compact_number(value: float) -> str:
    """12,345 -> '12.3 K'; 1,234,567 -> '1.23 M'; small numbers stay whole."""
    magnitude = abs(value)
    if magnitude >= 1_000_000:
        return f"{value / 1_000_000:,.2f} M"
    if magnitude >= 10_000:
        return f"{value / 1_000:,.1f} K"
    return f"{value:,.0f}"


def describe(chars: int, unit: str) -> str:
    """A size for people: '697.4 K chars' or '174.4 K ~tokens'."""
    return f"{compact_number(convert(chars, unit))} {SHORT[unit]}"
