"""The compaction layers, each a function from a history to a new history plus its records."""

from compaction.layers.micro import PLACEHOLDER, micro_compact
from compaction.layers.persist import tool_result_budget
from compaction.layers.snip import cut_points, snip_compact
from compaction.layers.summary import compact_history

__all__ = ["PLACEHOLDER", "compact_history", "cut_points", "micro_compact", "snip_compact",
           "tool_result_budget"]
