"""Claude Code's microcompact: old tool results replaced by a placeholder, permanently, in three forms:
- near the threshold: every result of the compactable tools but the newest 3, when that saves at least
  20,000 tokens (counted as characters / 4). Claude Code 2.0.76's code does it over the warning threshold
  (the auto-compact threshold less 20,000 tokens), yet most public logs grow past that without a drop: the
  logs show it where their recorded context fell 20,000 tokens or more with no compaction between two
  calls (dropped_calls; 39 times in 1.0.80-2.1.87), so that is where the preset does it by default;
- by count (a parameter, off: no public log shows it);
- after an idle gap (a parameter, off: 3 of 31 gaps of over an hour in the logs are followed by a drop).
"""

from datetime import datetime

from compaction.model.calibration import recorded_context
from compaction.model.events import Placeholder
from compaction.model.history import History
from compaction.model.messages import content_chars
from compaction.model.tokens import estimate_tokens
from compaction.strategies.clearing import Unit, clear_beyond_newest


def dropped_calls(history: History, at_least: int) -> frozenset[int]:
    """The original indices of the calls whose recorded context is `at_least` tokens below the recorded
    call before, with no compaction of the log's own between them: where the agent cleared old results."""
    def build() -> frozenset[int]:
        usage = history.recorded.usage
        calls = [i for i, m in enumerate(history.originals) if m.get("role") == "assistant" and i < len(usage)
                 and recorded_context(usage[i])]
        compacted = [b["index"] for b in history.recorded.boundaries if isinstance(b, dict)
                     and isinstance(b.get("index"), int)]
        return frozenset(after for before, after in zip(calls, calls[1:], strict=False)
                         if not any(before < index <= after for index in compacted)
                         and (recorded_context(usage[before]) or 0) - (recorded_context(usage[after]) or 0) >= at_least)
    return history.shared_value(("claude_code_drops", at_least), build)


def clear_near_threshold(history: History, key, units_in, act: bool, keep: int, min_saving: int,
                         placeholder: str, layer: str) -> tuple[History, list[Placeholder]]:
    """A permanent edit: when `act` and clearing every whole unit but the newest `keep` saves at least
    `min_saving` tokens (characters / 4), replace their results with `placeholder` (clear_beyond_newest,
    which remembers the whole units, so a call only looks at new messages)."""
    def worth(of: History, units: list[Unit]) -> bool:
        return sum(estimate_tokens(content_chars(of.messages[position]["content"][j].get("content", "")))
                   for unit in units for position, j in unit) >= min_saving

    return clear_beyond_newest(history, key, units_in, keep if act else 1 << 62, keep, lambda block: placeholder,
                               layer, worth)


def _seconds(text: str | None) -> float | None:
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() if text else None
    except (AttributeError, ValueError):
        return None


def idle_seconds(history: History) -> float | None:
    """Seconds from the newest assistant message of `history` to the call about to be made (the time of
    the response it produced, as the log wrote it); None when the log has no times for them."""
    times, origins = history.recorded.timestamps, history.origins
    newest = next((origin for origin in reversed(origins) if origin is not None), None)
    if not times or newest is None or newest >= len(times):
        return None
    now = _seconds(times[newest + 1] if newest + 1 < len(times) else times[newest])
    then = None
    for position in range(len(origins) - 1, -1, -1):  # the last response is a message or two back
        origin = origins[position]
        if origin is not None and origin < len(times) and history.messages[position].get("role") == "assistant":
            then = _seconds(times[origin])
            break
    return now - then if now is not None and then is not None else None
