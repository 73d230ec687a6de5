"""The compaction layers, each a function from a history to a new history plus its records."""

from compaction.layers.fates import FATE_TEXT, FATES, message_fates
from compaction.layers.micro import PLACEHOLDER, micro_compact
from compaction.layers.persist import persisted_marker, tool_result_budget
from compaction.layers.pipeline import LAYER_TITLES, PipelineResult, run_pipeline
from compaction.layers.pipeline_data import stage_rows
from compaction.layers.snip import cut_points, snip_compact
from compaction.layers.summary import compact_history

__all__ = ["FATES", "FATE_TEXT", "LAYER_TITLES", "PLACEHOLDER", "PipelineResult", "compact_history", "cut_points", "message_fates", "micro_compact", "persisted_marker", "run_pipeline", "snip_compact", "stage_rows", "tool_result_budget"]
