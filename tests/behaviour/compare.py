"""What differs between a case's expected file and its text now, told by section, row and column.

A table's row is named by its first column (`[calls] call 12`), a scalar by its section and key
(`[totals] cost_usd`); each differing value as `expected -> found`. The first few differing rows of a
table are told, then how many differ in all.
"""

SHOWN_ROWS = 5
NONE = "(none)"


def sections(text: str) -> dict[str, list[str]]:
    """Each `[name]` section's lines, comments left out."""
    found: dict[str, list[str]] = {}
    current = found.setdefault("", [])
    for line in text.splitlines():
        if line.startswith("[") and line.endswith("]"):
            current = found.setdefault(line[1:-1], [])
        elif not line.startswith("#"):
            current.append(line)
    return found


def _is_table(lines: list[str]) -> bool:
    return bool(lines) and lines != ["-"] and " = " not in lines[0]


def _scalars(lines: list[str]) -> dict[str, str]:
    return dict(line.split(" = ", 1) if " = " in line else (line, "") for line in lines)


def _scalar_differences(name: str, expected: list[str], found: list[str]) -> list[str]:
    old, new = _scalars(expected), _scalars(found)
    return [f"[{name}] {key}: {old.get(key, NONE)} -> {new.get(key, NONE)}"
            for key in dict.fromkeys([*old, *new]) if old.get(key) != new.get(key)]


def _rows(lines: list[str]) -> tuple[list[str], list[dict[str, str]]]:
    header = lines[0].split("\t")
    return header, [dict(zip(header, line.split("\t"), strict=False)) for line in lines[1:]]


def _table_differences(name: str, expected: list[str], found: list[str]) -> list[str]:
    header, old_rows = _rows(expected)
    found_header, new_rows = _rows(found)
    told = []
    if header != found_header:
        gone = [column for column in header if column not in found_header]
        added = [column for column in found_header if column not in header]
        told.append(f"[{name}] columns gone: {', '.join(gone) or '-'}; new: {', '.join(added) or '-'}")
    if len(old_rows) != len(new_rows):
        told.append(f"[{name}] {len(old_rows)} rows expected, {len(new_rows)} found")
    differing = 0
    for position in range(max(len(old_rows), len(new_rows))):
        old = old_rows[position] if position < len(old_rows) else None
        new = new_rows[position] if position < len(new_rows) else None
        if old == new:
            continue
        differing += 1
        if differing > SHOWN_ROWS:
            continue
        key = header[0]
        label = f"[{name}] {key} {(old or new or {}).get(key, '?')}"
        if old is None or new is None:
            told.append(f"{label}: only in the {'expected file' if new is None else 'output now'}")
            continue
        changed = [f"{column} {old.get(column, NONE)} -> {new.get(column, NONE)}"
                   for column in dict.fromkeys([*header, *found_header]) if old.get(column) != new.get(column)]
        told.append(f"{label}: " + ", ".join(changed))
    if differing > SHOWN_ROWS:
        told.append(f"[{name}] ... {differing} rows differ in all")
    return told


def differences(expected: str, found: str) -> list[str]:
    """One readable line per differing scalar or row; none when the texts are equal."""
    if expected == found:
        return []
    old, new = sections(expected), sections(found)
    told = []
    for name in dict.fromkeys([*old, *new]):
        if name not in old or name not in new:
            told.append(f"[{name}] section only in the {'output now' if name not in old else 'expected file'}")
        elif old[name] != new[name]:
            if _is_table(old[name]) and _is_table(new[name]):
                told += _table_differences(name, old[name], new[name])
            else:
                told += _scalar_differences(name, old[name], new[name])
    return told or ["the texts differ only in their comments"]
