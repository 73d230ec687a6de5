"""Why a stretch of Tune's grid is all the same: a setting that makes no difference over a range because
another layer already keeps the history below it (CONTEXT_LIMIT never reached because L1 snips and L2
replaces old results first), or because the session never gets there (max_messages above the session's
length); for an agent's own knobs, a threshold the context never reaches. Found from the cells
themselves: identical outcomes from some value of the axis on. And how the cells' cost stands against
the agent's own current setting replayed on the same calls (like for like: the same calls, the same prices,
the same cache), with what its log records beside it. No Streamlit here."""

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from compaction.model import History, content_text, tool_results
from compaction.sweep import SweepResult
from dashboard.render.units import compact_number, dollars

Label = Callable[[str, Any], str]  # (axis name, value) -> the value as the axes write it


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


def cell_words(result: SweepResult, row: int, column: int, label: Label,
               name: Callable[[str], str] = str) -> str:
    """A cell's values in words: 'auto_compact_token_limit 170,000' or 'x 1, y 2'."""
    return ", ".join(f"{name(axis)} {label(axis, value)}" for axis, value in result.values_at(row, column).items())


def value_label(_name: str, value: Any) -> str:
    """A value as an axis writes it when the page gives no labels: 170,000, 0.05."""
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else f"{value:g}" \
        if isinstance(value, float) else str(value)


@dataclass(frozen=True)
class OwnSetting:
    """What the cells' cost is set against: the agent's own current setting, replayed on the same calls, and
    what its log records."""

    cost: float  # the replay of the agent's own setting, every call, at the cells' prices and cache
    words: str  # what that setting is: "<agent>'s own setting (window_tokens 200,000)"
    recorded: float | None = None  # what the log records the session cost
    recorded_calls: int = 0  # the calls whose usage the log records
    calls: int = 0  # the session's calls
    cost_over_recorded: float | None = None  # the replay's cost over the calls whose usage the log records


def recorded_words(own: OwnSetting) -> str:
    """'Its log records $30.23.', and for how many of the calls when it records usage for only some."""
    if own.recorded is None:
        return "Its log records no cost."
    if own.calls and 0 < own.recorded_calls < own.calls:
        missing = own.calls - own.recorded_calls
        over = "" if own.cost_over_recorded is None else \
            f" Over those {own.recorded_calls:,} calls the setting replayed costs {dollars(own.cost_over_recorded)}."
        return (f"Its log records {dollars(own.recorded)} for {own.recorded_calls:,} of its {own.calls:,} calls (the "
                f"other {missing:,} recorded no usage), so that figure covers only those; the replays cover all.{over}")
    return f"Its log records {dollars(own.recorded)}."


def cost_against_log(result: SweepResult, own: OwnSetting | None, label: Label = value_label,
                     name: Callable[[str], str] = str) -> str | None:
    """One sentence: how the cells' cost stands against the agent's own setting replayed on the same calls,
    and what the log records beside it."""
    costs = sorted((cell["cost_usd"], row, column) for row, line in enumerate(result.cells)
                   for column, cell in enumerate(line) if cell["cost_usd"] is not None)
    if own is None or not costs:
        return None
    reference = f"{own.words}, replayed on the same calls ({dollars(own.cost)})"
    cheapest, row, column = costs[0]
    where = cell_words(result, row, column, label, name)
    cheaper = sum(1 for cost, _, _ in costs if cost < own.cost - 0.005)
    if cheaper == 0:
        first = f"No setting here costs less than {reference}: the cheapest ({where}) costs {dollars(cheapest)}."
    else:
        share = "Every setting here costs" if cheaper == len(costs) else \
            f"{cheaper:,} of {len(costs):,} settings cost" if cheaper != 1 else f"1 of {len(costs):,} settings costs"
        first = f"{share} less than {reference}; the cheapest ({where}) costs {dollars(cheapest)}."
    return f"{first} {recorded_words(own)}"


def _flat_ends(cells: list[dict]) -> tuple[int | None, int | None]:
    """(the first position of a run of equal cells ending the line, the last position of a run starting it)."""
    end = flat_from(cells)
    start = flat_from(cells[::-1])
    return end, None if start is None or end == 0 else len(cells) - 1 - start


def knob_notes(result: SweepResult, label: Label, who: str) -> list[str]:
    """Where one of an agent's knobs makes no difference: a run of equal cells at either end of a line
    along it, and why, in one sentence per axis and stretch. `who` names the agent."""
    notes = []
    axes = [(result.x_name, result.x_values, result.cells, result.y_name, result.y_values)]
    if result.y_name is not None:
        axes.append((result.y_name, result.y_values, [list(column) for column in zip(*result.cells, strict=True)],
                     result.x_name, result.x_values))
    for name, values, lines, other, others in axes:
        stretches: dict[tuple, list[int]] = defaultdict(list)
        for position, line in enumerate(lines):
            end, start = _flat_ends(line)
            if end is not None:
                stretches["from", end, line[end]["summaries"]].append(position)
            if start is not None:
                stretches["up to", start, line[start]["summaries"]].append(position)
        for (side, at, summaries), found in stretches.items():
            where = "" if other is None else f", whatever the {other}" if len(found) == len(lines) else \
                f" at {other} {_joined([label(other, others[line]) for line in found])}"
            why = f"{who} never compacts there" if not summaries else \
                f"every measure is the same there ({summaries:,} compaction{'s' if summaries != 1 else ''})"
            span = f"anywhere from {label(name, values[0])} to {label(name, values[-1])}" if side == "from" \
                and at == 0 else f"from {label(name, values[at])} up" if side == "from" else \
                f"up to {label(name, values[at])}"
            notes.append(f"{name} makes no difference {span}{where}: {why}.")
    return notes
