"""A case's value as text a reviewer can read in a diff: sections of `key = value` lines and of tables.

A section starts with `[name]`. A section of scalars has one `key = value` line each (nested dicts as
`outer.inner`); a section holding a list of dicts is a table of tab-separated columns: a header line,
then one row per item (a replay's `[calls]` has one row per model call, first column the call number). Cells: floats rounded to
6 decimal places (costs to the micro-dollar), `true`/`false`, `-` for None or an empty list, `""` for
an empty string, an empty cell where the row lacks that column, tabs and newlines escaped, lists joined with `,`, dicts inside a cell as `key=value` pairs.

Columns of `[calls]` that follow from the others are left out while they do (`[derived]` names them):
the running totals, the estimate equal to the tokens, the count of the blind terms. A change that breaks
one of those relations brings its column back, so nothing the engine computed goes unchecked.
"""

from typing import Any

PRECISION = 6  # decimal places of every float


def cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        text = f"{value:.{PRECISION}f}".rstrip("0").rstrip(".")
        return "0" if text == "-0" else text
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        if not value:
            return '""'
        return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
    if isinstance(value, dict):
        return " ".join(f"{key}={cell(item)}" for key, item in value.items()) or "-"
    if isinstance(value, list | tuple):
        return ", ".join(cell(item) for item in value) if value else "-"
    return cell(str(value))


def flat(value: dict, prefix: str = "") -> dict[str, Any]:
    """Nested dicts as dotted keys; anything else stays one value."""
    found: dict[str, Any] = {}
    for key, item in value.items():
        if isinstance(item, dict) and item:
            found |= flat(item, f"{prefix}{key}.")
        else:
            found[f"{prefix}{key}"] = item
    return found


def scalars(name: str, value: dict | None) -> list[str]:
    if not value:
        return [f"[{name}]", "-"]
    return [f"[{name}]", *(f"{key} = {cell(item)}" for key, item in flat(value).items())]


def table(name: str, rows: list[dict]) -> list[str]:
    """One column per key (a dict-valued key: one per inner key, empty where a row's is None)."""
    if not rows:
        return [f"[{name}]", "-"]
    nested = {key for row in rows for key, value in row.items() if isinstance(value, dict) and value}
    columns: dict[str, None] = {}  # ordered as first met
    for row in rows:
        for key, value in row.items():
            if key not in nested:
                columns[key] = None
            elif isinstance(value, dict):
                columns.update((f"{key}.{inner}", None) for inner in value)

    def value_at(row: dict, column: str) -> str:
        outer, _, inner = column.partition(".")
        if outer in nested:
            if outer not in row:
                return ""
            found = row[outer]
            return cell(found.get(inner)) if isinstance(found, dict) else cell(found)
        return cell(row[column]) if column in row else ""

    return [f"[{name}]", "\t".join(columns),
            *("\t".join(value_at(row, column) for column in columns) for row in rows)]


def _running(values: list[int]) -> list[int]:
    total, found = 0, []
    for value in values:
        total += value
        found.append(total)
    return found


def derived_columns(calls: list[dict]) -> dict[str, str]:
    """The columns of these calls that follow from others, each with the relation it holds to."""
    tokens = [call.get("tokens") for call in calls]
    relations = {
        "estimated_tokens": ("= tokens", lambda: [call.get("estimated_tokens") for call in calls] == tokens),
        "tokens_total": ("running sum of tokens",
                         lambda: [call.get("tokens_total") for call in calls] == _running(tokens)),
        "raw_tokens_total": ("running sum of raw_tokens",
                             lambda: [call.get("raw_tokens_total") for call in calls]
                             == _running([call.get("raw_tokens") for call in calls])),
        "blind_references": ("number of blind_terms",
                             lambda: all(call.get("blind_references") == len(call.get("blind_terms", []))
                                         for call in calls)),
    }
    present = {key for call in calls for key in call}
    return {column: relation for column, (relation, holds) in relations.items()
            if column in present and holds()}


def render_replay(value: dict) -> list[str]:
    calls = value["calls"]
    derived = derived_columns(calls)
    rows = [{key: item for key, item in call.items() if key not in derived} for call in calls]
    return [*scalars("settings", value["settings"]), *scalars("prices", value["prices"]),
            *table("boundaries", value["boundaries"]), *scalars("totals", value["totals"]),
            *scalars("derived", derived), *table("calls", rows)]


def render_sweep(cells: list[list[dict]], x: tuple[str, list[int]], y: tuple[str, list[int]]) -> list[str]:
    rows = [{y[0]: y_value, x[0]: x_value, **cells[row][column]}
            for row, y_value in enumerate(y[1]) for column, x_value in enumerate(x[1])]
    return table("cells", rows)


def render_run(value: dict) -> list[str]:
    lines = scalars("result", {key: item for key, item in value.items()
                               if not isinstance(item, dict | list) or not item})
    for key, item in value.items():
        if isinstance(item, dict) and item:
            lines += scalars(key, item)
        elif isinstance(item, list) and item:
            lines += table(key, item) if all(isinstance(row, dict) for row in item) else scalars(key, {"items": item})
    return lines
