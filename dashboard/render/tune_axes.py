"""Tune's axes in the agent's regime: for a log with usage, sizes in tokens through the token model
calibrated on it, and default ranges from aggressive to where the agent itself ran (up to the model
window, the log's own compaction point among the values, max_messages up to the whole session).

CONTEXT_LIMIT is compared with the characters of the messages, but a call sends them with its system
prompt and tools: in tokens it is counted as a call sends it, with the overhead (as the Replay chart's
line and the log's own count when it compacted). The other sizes are one tool output's: tokens without
the overhead. The settings stay characters underneath (the sweep's axes); a token value is converted
to the nearest 100 characters. No Streamlit here.
"""

import math
from dataclasses import dataclass

from compaction.model import History, TokenModel
from compaction.replay import regime_point

CHARS, TOKENS = "chars", "tokens"
WITH_OVERHEAD = ("context_limit",)  # what a call sends: counted with the overhead
SIZE_SETTINGS = ("context_limit", "persist_threshold", "max_bytes", "preview_chars")
ROUND_TO = 100  # characters: a converted value sits on the sliders' steps
MAX_MESSAGES_SERIES = (50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000)


@dataclass(frozen=True)
class Converter:
    """Characters <-> tokens for one conversation's settings."""

    model: TokenModel
    overhead_chars: int = 0

    def chars(self, field: str, tokens: int) -> int:
        if field in WITH_OVERHEAD:
            content = self.model.chars(max(tokens - self.model.overhead_tokens, 0)) - self.overhead_chars
        else:
            content = self.model.chars(tokens)
        return max(ROUND_TO, ROUND_TO * round(content / ROUND_TO))

    def tokens(self, field: str, chars: int) -> int:
        if field in WITH_OVERHEAD:
            return self.model.tokens(chars + self.overhead_chars)
        return self.model.content_tokens(chars)


def converter(history: History) -> Converter:
    return Converter(history.token_model, history.overhead)


def in_tokens(field: str, unit: str) -> bool:
    return unit == TOKENS and field in SIZE_SETTINGS


def unit_words(field: str, unit: str) -> str:
    """The unit an axis is typed and read in."""
    if not in_tokens(field, unit):
        return "characters" if field in SIZE_SETTINGS else ""
    return "tokens, with the overhead" if field in WITH_OVERHEAD else "tokens"


def _rounded(value: float, to: int = 1_000) -> int:
    return int(to * round(value / to))


def regime_context_limits(history: History, window: int, count: int = 10) -> tuple[int, ...]:
    """CONTEXT_LIMIT in tokens with the overhead: `count` steps from aggressive (a tenth of the window,
    above what every call sends anyway) to the model window, and the log's own compaction point."""
    low = max(window // 10, history.token_model.overhead_tokens + 2_000)
    values = {_rounded(low + (window - low) * step / (count - 1)) for step in range(count)}
    point = regime_point(history)  # the one the agent's regime is read from (agent_regime.py)
    if point is not None and point <= window:
        values.add(_rounded(point))
    return tuple(sorted(value for value in values if value > 0))


def regime_max_messages(messages: int) -> tuple[int, ...]:
    """max_messages from the tutorial's 50 up to the first value that keeps the whole session (L1 never
    snips: the agent's own regime)."""
    values = [value for value in MAX_MESSAGES_SERIES if value < messages]
    whole = next((value for value in MAX_MESSAGES_SERIES if value >= messages), math.ceil(messages / 1_000) * 1_000)
    return tuple(values + [whole])


def default_token_axes(history: History, window: int) -> dict[str, tuple[int, ...]]:
    """Each setting's default values in the agent's regime (tokens for sizes), by Settings field."""
    sizes = history.token_model
    return {
        "context_limit": regime_context_limits(history, window),
        "max_messages": regime_max_messages(len(history.messages)),
        "keep_recent": (1, 3, 5, 10, 20, 50, 100, 200, 500, 1_000),
        "persist_threshold": tuple(_rounded(sizes.content_tokens(chars), 500) for chars in range(10_000, 100_001, 10_000)),
        "max_bytes": tuple(_rounded(sizes.content_tokens(chars), 500) for chars in range(40_000, 400_001, 40_000)),
        "preview_chars": tuple(_rounded(sizes.content_tokens(chars), 50) for chars in range(500, 5_001, 500)),
    }
