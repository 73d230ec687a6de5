"""Why a stretch of Tune's grid is all the same: a setting that makes no difference over a range because
another layer already keeps the history below it (CONTEXT_LIMIT never reached because L1 snips and L2
replaces old results first), or because the session never gets there (max_messages above the session's
length). Found from the cells themselves: identical outcomes from some value of the axis on. No
Streamlit here."""

from collections import defaultdict
from collections.abc import Callable

from compaction.model import History, content_text, tool_results
from compaction.replay import SweepResult
from dashboard.render.units import compact_number


def flat_from(cells: list[dict]) -> int | None:
    """The first position from which every cell is the same as the last one (at least two), else None."""
    if len(cells) < 2 or cells[-2] != cells[-1]:
        return None
    start = len(cells) - 2
    while start > 0 and cells[start - 1] == cells[-1]:
        start -= 1
    return start


def _session_messages(history: History) -> int:
    """Messages the loop's history can hold: the session without the agent's own summaries."""
    return len(history.messages) - len(history.recorded.agent_summaries)


def _tool_results(history: History, longer_than: int) -> int:
    return history.shared_value(("tool results longer than", longer_than), lambda: sum(
        1 for message in history.messages for result in tool_results(message)
        if len(content_text(result.get("content", ""))) > longer_than))


def layers_below(history: History, settings) -> list[str]:
    """The cheap layers that act on this session at `settings` (they keep the history below CONTEXT_LIMIT)."""
    acting = []
    if _session_messages(history) > settings.max_messages:
        acting.append(f"L1 (max_messages {settings.max_messages:,})")
    if _tool_results(history, settings.min_placeholder_chars) > settings.keep_recent:
        acting.append(f"L2 (KEEP_RECENT {settings.keep_recent:,})")
    return acting


def _joined(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def irrelevance_notes(result: SweepResult, history: History, label: Callable[[str, int], str],
                      name: Callable[[str], str], in_tokens: bool) -> list[str]:
    """One sentence per stretch of the grid where a setting makes no difference, saying why.
    `label(field, value)` writes a value as the axes show it, `name(field)` the setting's name."""
    notes = []
    x, y = result.x_name, result.y_name
    x_name, y_name = name(x), name(y)
    grouped: dict[tuple, list[int]] = defaultdict(list)
    for row, cells in enumerate(result.cells):
        start = flat_from(cells)
        if start is None:
            continue
        cell = cells[start]
        settings = result.settings_at(row, start)
        layers = layers_below(history, settings) if x == "context_limit" and not cell["summaries"] else []
        under = (f"{compact_number(cell['peak_tokens'])} tokens" if in_tokens
                 else f"{compact_number(max(cell['peak_chars'] - history.overhead, 0))} characters")
        grouped[start, tuple(layers), under].append(row)
    for (start, layers, under), rows in grouped.items():
        where = _joined([label(y, result.y_values[row]) for row in rows])
        since = label(x, result.x_values[start])
        if layers:
            notes.append(f"{x_name} makes no difference from {since} up at {y_name} "
                         f"{where}: {_joined(list(layers))} already keep{'s' if len(layers) == 1 else ''} the history "
                         f"under {under}, so L4 never fires there.")
        elif x == "context_limit":
            notes.append(f"{x_name} makes no difference from {since} up at {y_name} {where}: the history never "
                         f"passes {under} there, so L4 never fires.")
        else:
            notes.append(f"{x_name} makes no difference from {since} up at {y_name} {where}: the cells are the same.")
    columns = [flat_from([result.cells[row][column] for row in range(len(result.y_values))])
               for column in range(len(result.x_values))]
    if columns and all(start is not None and start == columns[0] for start in columns):
        since = result.y_values[columns[0]]
        if y == "max_messages" and since >= _session_messages(history):
            notes.append(f"{y_name} makes no difference from {label(y, since)} up: the session holds "
                         f"{_session_messages(history):,} messages, so L1 never snips (the agent's own regime).")
        else:
            notes.append(f"{y_name} makes no difference from {label(y, since)} up, whatever the {x_name}: the cells "
                         "are the same.")
    return notes
