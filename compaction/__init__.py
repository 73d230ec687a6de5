"""Compaction Lab's engine: the four-layer context compaction pipeline, pure Python."""

from .conversation import Conversation, LoadWarning
from .errors import CompactionError, ConversationError, SettingsError, SummarizerError
from .history import History, prepare
from .layers import PLACEHOLDER, compact_history, micro_compact, snip_compact, tool_result_budget
from .pipeline import LAYERS, PipelineResult, Stage, run_pipeline
from .settings import DEFAULTS, Settings
from .sizes import estimate_tokens, history_size
from .store import OutputStore
from .summarizers import OfflineSummarizer
from .validity import check_pairs, is_valid

__all__ = [
    "DEFAULTS", "LAYERS", "PLACEHOLDER", "CompactionError", "Conversation", "ConversationError",
    "History", "LoadWarning", "OfflineSummarizer", "OutputStore", "PipelineResult", "SettingsError",
    "Settings", "Stage", "SummarizerError", "check_pairs", "compact_history", "estimate_tokens",
    "history_size", "is_valid", "micro_compact", "prepare", "run_pipeline", "snip_compact",
    "tool_result_budget",
]
