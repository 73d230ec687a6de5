"""Whether the person had turned Claude Code's auto-compact off (/config, autoCompactEnabled): the log's
calls went past the threshold, call after call, and Claude Code never compacted by itself. Logs record no
setting; their calls show it. Public logs of people who typed /compact carry on to 194,000 tokens of a
200,000 window with no automatic compaction, where the preset's 167,000 would have compacted 39 calls
before the person did."""

from compaction.model.calibration import recorded_context
from compaction.model.history import History

PASSES = 2  # calls past the threshold with no compaction before the next: one may be a race with the check


def passes_over(history: History, limit: int) -> int:
    """How many recorded calls carried at least `limit` tokens and were followed by another call with no
    compaction of the log's between them."""
    starts = {b["index"] for b in history.recorded.boundaries if isinstance(b, dict) and isinstance(b.get("index"), int)}
    usage = history.recorded.usage
    calls = [i for i, u in enumerate(usage) if u]
    return sum(1 for here, after in zip(calls, calls[1:], strict=False)
               if (recorded_context(usage[here]) or 0) >= limit and not any(here < s <= after for s in starts))


def auto_compact_off(history: History, limit: int) -> bool:
    """Off when the log has no automatic compaction and went past `limit` without one at least PASSES times."""
    def build() -> bool:
        if any(isinstance(b, dict) and b.get("trigger") == "auto" for b in history.recorded.boundaries):
            return False
        return passes_over(history, limit) >= PASSES
    return history.shared_value(("claude_code_auto_off", limit), build)
