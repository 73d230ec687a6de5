"""What a conversation is to the engine: messages and their blocks (messages.py), a loaded conversation
(conversation.py), a history with its sizes and token model (history.py, prepared.py, tokens.py,
calibration.py), the settings (settings.py), the texts compaction leaves (markers.py), tool pairs
(validity.py).

Its modules are internal to the engine: the dashboard and other packages use the names below.
"""

from compaction.model.calibration import recorded_context
from compaction.model.conversation import Conversation, LoadWarning
from compaction.model.events import PersistedOutput
from compaction.model.history import History, prepare
from compaction.model.markers import COMPACTED_PREFIX, PLACEHOLDER, REACTIVE_PREFIX
from compaction.model.messages import block_types, blocks, content_text, tool_results, tool_uses
from compaction.model.prepared import Prepared
from compaction.model.settings import DEFAULTS, HELP, Settings
from compaction.model.tokens import DEFAULT_TOKEN_MODEL, TokenModel
from compaction.model.validity import PairProblem, is_waiting_call

__all__ = ["COMPACTED_PREFIX", "DEFAULTS", "DEFAULT_TOKEN_MODEL", "HELP", "PLACEHOLDER", "REACTIVE_PREFIX", "Conversation",
           "History", "LoadWarning", "PairProblem", "PersistedOutput", "Prepared", "Settings", "TokenModel", "block_types", "blocks",
           "content_text", "is_waiting_call", "prepare", "recorded_context", "tool_results", "tool_uses"]
