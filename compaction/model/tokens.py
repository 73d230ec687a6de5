"""Characters -> tokens, estimated. Every token figure of the project goes through one TokenModel; the
exact count of a request, which needs the API, is compaction.llm.token_count.

Without recorded usage the model is the rule of thumb (characters / 4, no overhead). A log that
recorded what each call carried gives a calibrated model (calibration.py): `overhead_tokens`
is what every call sent that the log does not hold (an agent's system prompt and tool definitions)
and `tokens_per_char` this conversation's own ratio.
"""

import math
from dataclasses import dataclass

CHARS_PER_TOKEN = 4  # the usual rule of thumb for English text and code


def estimate_tokens(chars: int) -> int:
    """The rule of thumb: characters / 4, rounded up."""
    return -(-chars // CHARS_PER_TOKEN)


@dataclass(frozen=True)
class TokenModel:
    tokens_per_char: float = 1 / CHARS_PER_TOKEN
    overhead_tokens: int = 0
    calibrated: bool = False

    def tokens(self, chars: int) -> int:
        """Tokens of a prompt of `chars` characters (messages, plus system prompt and tools when known),
        the overhead the characters do not include added."""
        if not self.calibrated:
            return self.overhead_tokens + estimate_tokens(chars)
        return self.overhead_tokens + math.ceil(chars * self.tokens_per_char)

    def content_tokens(self, chars: int) -> int:
        """Tokens of part of a prompt (a message, a block): no overhead."""
        if not self.calibrated:
            return estimate_tokens(chars)
        return math.ceil(chars * self.tokens_per_char)

    def chars(self, tokens: int) -> int:
        """Characters of content that weigh `tokens` (no overhead): converts a token threshold."""
        return math.floor(tokens / self.tokens_per_char)

    def describe(self) -> str:
        if not self.calibrated:
            return "estimated as characters / 4 (no recorded usage to calibrate on)"
        return (f"{self.tokens_per_char:.3f} tokens per character plus {self.overhead_tokens:,} tokens per call "
                "of system prompt and tools the log does not hold")


DEFAULT_TOKEN_MODEL = TokenModel()
