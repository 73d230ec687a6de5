"""What a model call costs and what the model loses, each a pure function of the histories sent.

- `token_model`: characters -> tokens (characters / 4 by default; calibrated on a log's recorded usage).
"""

from compaction.model.tokens import DEFAULT_TOKEN_MODEL, TokenModel

__all__ = ["DEFAULT_TOKEN_MODEL", "TokenModel"]
