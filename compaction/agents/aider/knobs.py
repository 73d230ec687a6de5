"""What Tune sweeps of Aider: its chat-history limit (.aider.conf.yml's max-chat-history-tokens), from a
quarter of its default for the window (1/16 of it, 1,024 to 8,192 tokens) to sixteen times that."""

from compaction.agents.aider.preset import history_limit
from compaction.strategies.knobs import Knob, Regime, around

FACTORS = (0.25, 0.5, 1, 2, 4, 8, 16)


def _default(regime: Regime) -> int:
    return history_limit({"window_tokens": regime.window_tokens, "max_chat_history_tokens": 0})


KNOBS = (Knob("max_chat_history_tokens", "the chat-history limit (.aider.conf.yml's max-chat-history-tokens)",
              lambda regime: around(_default(regime), FACTORS, 256, regime.window_tokens), _default),)
