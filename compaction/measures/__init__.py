"""What a model call costs and what the model loses, each a pure function of the histories sent.

- `token_model`: characters -> tokens (characters / 4 by default; calibrated on a log's recorded usage).
- `composition(history)`, `compositions_along(replay)`: what fills a call's context, by kind, in tokens
  (composition.py: the characters of each kind; composition_tokens.py: those as the call's tokens).
"""

from compaction.measures.composition import KIND_TITLES, KINDS, NOT_IN_LOG, TOOL_RESULTS
from compaction.measures.composition_tokens import (
    OTHER_TOOLS,
    Composition,
    call_composition,
    composition,
    compositions_along,
    sent_composition,
    uncompacted_along,
    uncompacted_call_composition,
    uncompacted_composition,
)
from compaction.model.tokens import DEFAULT_TOKEN_MODEL, TokenModel

__all__ = ["DEFAULT_TOKEN_MODEL", "KINDS", "KIND_TITLES", "NOT_IN_LOG", "OTHER_TOOLS", "TOOL_RESULTS", "Composition",
           "TokenModel",
           "call_composition", "composition", "compositions_along", "sent_composition", "uncompacted_along",
           "uncompacted_call_composition", "uncompacted_composition"]
