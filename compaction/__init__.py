"""Compaction Lab's engine, pure Python: load an agent's log, run the four-layer compaction pipeline on it,
replay it call by call with any strategy of the registry, sweep two settings, and measure what each costs
and loses. The public API is re-exported here; the subpackages are its table of contents:

- model/ (messages, conversations, histories, sizes, settings, tokens), layers/ (L3, L1, L2, L4, the
  pipeline, reactive compaction, the compact tool), strategies/ (the registry of peer strategies),
  replay/ (one session under one setting: the reference loop and its incremental form, one call protocol,
  the records, fidelity to the log), compactions/ (each of the log's own compactions, opened), sweep/ (a grid of settings over replays: branches, worker processes,
  and its columnar kernel), measures/ (cache, cost, loss, the registry of measures), importers/ (the
  registry of formats), llm/ (Claude, when given a key), summarizers/, storage/ (persisted outputs,
  workspaces), corpus/ (many sessions), generate/, client/ (the compacting client and its trace),
  export/ (a strategy in its agent's own form), live/ (a log followed as it is written), cli/;
  agents/ (one package per agent: its readers, preset, forecast rule, export form, folders).

The agents registry is imported first: it enters every agent's parts into the tables the subpackages own.
"""

from compaction import agents as agents  # noqa: I001  (first: the tables below hold every agent once imported)
from compaction.errors import CompactionError, ConversationError, SettingsError, SummarizerError
from compaction.generate import KINDS as GENERATE_KINDS
from compaction.generate import generate, realistic_session, seed_demo
from compaction.importers import MAX_FILE_BYTES, MAX_NESTING_DEPTH, detect_format, load_conversation
from compaction.layers import PLACEHOLDER, compact_history, micro_compact, snip_compact, tool_result_budget
from compaction.layers.pipeline import LAYERS, PipelineResult, Stage, run_pipeline
from compaction.model.conversation import Conversation, LoadWarning
from compaction.model.history import History, prepare
from compaction.model.settings import DEFAULTS, Settings
from compaction.model.sizes import history_size
from compaction.model.tokens import estimate_tokens
from compaction.model.validity import check_pairs, is_valid
from compaction.replay.loop import CallRecord, ReplayResult, replay
from compaction.sweep import SweepResult, sweep
from compaction.storage.outputs import OutputStore
from compaction.strategies import REGISTRY as STRATEGIES
from compaction.strategies import StrategySpec, build
from compaction.summarizers import OfflineSummarizer
from compaction.version import __version__ as __version__
from compaction.importers.formats import choices as _format_choices

INPUT_FORMATS = _format_choices()  # "auto" and every format's name

__all__ = [
    "DEFAULTS", "GENERATE_KINDS", "INPUT_FORMATS", "LAYERS", "MAX_FILE_BYTES", "MAX_NESTING_DEPTH",
    "PLACEHOLDER", "STRATEGIES", "CallRecord", "CompactionError", "Conversation", "ConversationError", "History",
    "LoadWarning", "OfflineSummarizer", "OutputStore", "PipelineResult", "ReplayResult", "SettingsError",
    "Settings", "Stage", "StrategySpec", "SummarizerError", "SweepResult", "build", "check_pairs",
    "compact_history", "detect_format", "estimate_tokens", "generate", "history_size", "is_valid",
    "load_conversation", "micro_compact", "prepare", "realistic_session", "replay", "run_pipeline", "seed_demo",
    "snip_compact", "sweep", "tool_result_budget",
]
