"""Compaction Lab's engine: the four-layer context compaction pipeline, pure Python."""

from compaction.errors import CompactionError, ConversationError, SettingsError, SummarizerError
from compaction.generate import KINDS as GENERATE_KINDS
from compaction.generate import generate, realistic_session, seed_demo
from compaction.importers import FORMATS as INPUT_FORMATS
from compaction.importers import MAX_FILE_BYTES, MAX_NESTING_DEPTH, detect_format, load_conversation
from compaction.layers import PLACEHOLDER, compact_history, micro_compact, snip_compact, tool_result_budget
from compaction.layers.pipeline import LAYERS, PipelineResult, Stage, run_pipeline
from compaction.model.conversation import Conversation, LoadWarning
from compaction.model.history import History, prepare
from compaction.model.settings import DEFAULTS, Settings
from compaction.model.sizes import history_size
from compaction.model.tokens import estimate_tokens
from compaction.model.validity import check_pairs, is_valid
from compaction.storage.outputs import OutputStore
from compaction.summarizers import OfflineSummarizer

__version__ = "0.2.0"  # the one place it is written (pyproject.toml reads it)

__all__ = [
    "DEFAULTS", "GENERATE_KINDS", "INPUT_FORMATS", "LAYERS", "MAX_FILE_BYTES", "MAX_NESTING_DEPTH",
    "PLACEHOLDER", "CompactionError", "Conversation", "ConversationError", "History", "LoadWarning",
    "OfflineSummarizer", "OutputStore", "PipelineResult", "SettingsError", "Settings", "Stage",
    "SummarizerError", "check_pairs", "compact_history", "detect_format", "estimate_tokens", "generate",
    "history_size", "is_valid", "load_conversation", "micro_compact", "prepare", "realistic_session",
    "run_pipeline", "seed_demo", "snip_compact", "tool_result_budget",
]
