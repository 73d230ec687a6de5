"""Plain pandas frames for the pages' tables; no Streamlit here, so they are tested directly."""

from collections import Counter
from collections.abc import Iterable

import pandas as pd

from compaction.layers import PipelineResult
from compaction.model import History, PersistedOutput, block_types, tool_results, tool_uses
from compaction.replay import ReplayResult
from compaction.storage import StoredOutput
from dashboard.render import layer_amounts
from dashboard.render.text import message_summary_line
from dashboard.render.units import convert


def message_tools(history: History, index: int) -> str:
    """Tool names message `index` calls (assistant) or answers (user), in order, without repeats."""
    message = history.messages[index]
    names = [str(use.get("name", "?")) for use in tool_uses(message)]
    names += [history.tool_name(result.get("tool_use_id"), history.origins[index])
              for result in tool_results(message)]
    return ", ".join(dict.fromkeys(names))


def message_frame(history: History, unit: str, indices: Iterable[int] | None = None,
                  by_origin: bool = False) -> pd.DataFrame:
    """One row per message: index, role, block types, tool, size, first line. `indices` are positions in
    `history`; `by_origin` numbers the rows as the loaded conversation does (a pass over part of it)."""
    rows = []
    for index in range(len(history.messages)) if indices is None else indices:
        message = history.messages[index]
        origin = history.origins[index]
        rows.append({
            "index": origin if by_origin and origin is not None else index,
            "role": message.get("role", "?"),
            "blocks": ", ".join(dict.fromkeys(block_types(message))),
            "tool": message_tools(history, index),
            "size": convert(history.sizes[index], unit, history.token_model),
            "first line": message_summary_line(message, history.tool_name),
        })
    return pd.DataFrame(rows, columns=["index", "role", "blocks", "tool", "size", "first line"])


def tool_call_counts(messages: list[dict]) -> pd.DataFrame:
    """How many times each tool was called, most called first."""
    counts = Counter(str(use.get("name", "?")) for message in messages for use in tool_uses(message))
    rows = [{"tool": name, "calls": calls} for name, calls in counts.most_common()]
    return pd.DataFrame(rows, columns=["tool", "calls"])


def snipped_frame(result: PipelineResult, unit: str) -> pd.DataFrame:
    """The ranges L1 dropped: original indices, count, size and the first line of the first message."""
    history = result.stages[0].history
    rows = []
    for snipped in result.snipped:
        first = history.originals[snipped.start] if snipped.start is not None else {}  # an origin, not a position
        rows.append({
            "from": snipped.start,
            "to": snipped.end,
            "messages": snipped.count,
            # one pass snips one range: its amount is L1's (layer_amounts.py); else its messages less the marker
            "removed": layer_amounts.removed(result, "L1", unit) if len(result.snipped) == 1
            else convert(snipped.size - len(snipped.marker), unit, history.token_model),
            "first line": message_summary_line(first, history.tool_name) if first else "",
            "marker left": snipped.marker,
        })
    return pd.DataFrame(rows, columns=["from", "to", "messages", "removed", "first line", "marker left"])


def placeholder_frame(result: PipelineResult, unit: str) -> pd.DataFrame:
    """The tool results L2 replaced with a placeholder."""
    model = result.stages[0].history.token_model
    rows = [{
        "message": event.index,
        "tool": event.tool,
        "tool_use_id": event.tool_use_id,
        "original size": convert(event.original_chars, unit, model),
        "placeholder": event.text,
        "layer": event.layer,
    } for event in result.placeholders]
    return pd.DataFrame(rows, columns=["message", "tool", "tool_use_id", "original size", "placeholder", "layer"])


def persisted_along(result: ReplayResult) -> dict[str, tuple[int, PersistedOutput]]:
    """Per tool_use_id, the (0-based) call before which L3 persisted that output along the replay, and its
    record: one pass of L3 sees only the newest message, the replay every message as it was the newest."""
    return {event.tool_use_id: (record.call, event) for record in result.calls for event in record.events
            if isinstance(event, PersistedOutput)}


def persisted_frame(outputs: list[StoredOutput], in_conversation: set[str], unit: str) -> pd.DataFrame:
    """Every output L3 wrote in this session; `in_conversation` marks those of the loaded conversation."""
    rows = [{
        "tool": stored.tool,
        "tool_use_id": stored.tool_use_id,
        "size": convert(stored.chars, unit),
        "bytes on disk": stored.bytes,
        "in loaded conversation": stored.tool_use_id in in_conversation,
        "path": str(stored.path),
    } for stored in outputs]
    return pd.DataFrame(rows, columns=["tool", "tool_use_id", "size", "bytes on disk", "in loaded conversation",
                                       "path"])
