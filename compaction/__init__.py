"""Compaction Lab's engine: the four-layer context compaction pipeline, pure Python."""

from .conversation import Conversation, LoadWarning
from .errors import CompactionError, ConversationError, SettingsError, SummarizerError
from .generate import KINDS as GENERATE_KINDS
from .generate import generate, realistic_session, seed_demo
from .history import History, prepare
from .importers import FORMATS as INPUT_FORMATS
from .importers import MAX_FILE_BYTES, MAX_NESTING_DEPTH, detect_format, load_conversation
from .layers import PLACEHOLDER, compact_history, micro_compact, snip_compact, tool_result_budget
from .pipeline import LAYERS, PipelineResult, Stage, run_pipeline
from .settings import DEFAULTS, Settings
from .sizes import estimate_tokens, history_size
from .store import OutputStore
from .summarizers import OfflineSummarizer
from .validity import check_pairs, is_valid

__all__ = [
    "DEFAULTS", "GENERATE_KINDS", "INPUT_FORMATS", "LAYERS", "MAX_FILE_BYTES", "MAX_NESTING_DEPTH",
    "PLACEHOLDER", "CompactionError", "Conversation", "ConversationError", "History", "LoadWarning",
    "OfflineSummarizer", "OutputStore", "PipelineResult", "SettingsError", "Settings", "Stage",
    "SummarizerError", "check_pairs", "compact_history", "detect_format", "estimate_tokens", "generate",
    "history_size", "is_valid", "load_conversation", "micro_compact", "prepare", "realistic_session",
    "run_pipeline", "seed_demo", "snip_compact", "tool_result_budget",
]
