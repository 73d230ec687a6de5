"""The unit switch: sizes in characters (as the tutorial counts) or tokens, through the token model of the
conversation on show (calibrated on the usage its log recorded, else characters / 4)."""

from compaction.model import DEFAULT_TOKEN_MODEL, TokenModel

CHARS = "chars"
TOKENS = "tokens"
UNITS = (CHARS, TOKENS)
UNIT_LABELS = {CHARS: "characters", TOKENS: "estimated tokens"}
SHORT = {CHARS: "chars", TOKENS: "~tokens"}
# a size of messages in words: in tokens it never holds the system prompt and tools a call also sends
SIZE_WORDS = {CHARS: "characters", TOKENS: "estimated tokens, without the overhead"}


def convert(chars: int, unit: str, model: TokenModel = DEFAULT_TOKEN_MODEL) -> int:
    """A size in characters (part of a prompt: no per-call overhead) expressed in `unit`."""
    return model.content_tokens(chars) if unit == TOKENS else chars


def compact_number(value: float) -> str:
    """12,345 -> '12.3 K'; 1,234,567 -> '1.23 M'; small numbers stay whole."""
    magnitude = abs(value)
    if magnitude >= 1_000_000:
        return f"{value / 1_000_000:,.2f} M"
    if magnitude >= 10_000:
        return f"{value / 1_000:,.1f} K"
    return f"{value:,.0f}"


def percent(share: float | None, digits: int = 0) -> str:
    """0.42 -> '42 %'; None (the measure does not apply) -> '–'."""
    return "–" if share is None else f"{100 * share:.{digits}f} %"


def dollars(value: float | None) -> str:
    return "–" if value is None else f"${value:,.2f}"


def describe(chars: int, unit: str, model: TokenModel = DEFAULT_TOKEN_MODEL) -> str:
    """A size for people: '697.4 K chars' or '174.4 K ~tokens'."""
    return f"{compact_number(convert(chars, unit, model))} {SHORT[unit]}"
