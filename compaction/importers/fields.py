"""A log's optional fields, read as the kind a reader expects: the value when it is of that kind, else
an empty one. A log is JSON another program wrote, so any field may be missing or of another kind; these
say `line.get(key) if isinstance(line.get(key), dict) else {}` in one call, with its type."""

from datetime import UTC, datetime
from typing import Any


def object_at(value: dict, key: str) -> dict[str, Any]:
    found = value.get(key)
    return found if isinstance(found, dict) else {}


def text_at(value: dict, key: str) -> str:
    found = value.get(key)
    return found if isinstance(found, str) else ""


def list_at(value: dict, key: str) -> list:
    found = value.get(key)
    return found if isinstance(found, list) else []


def epoch_time(value: Any) -> str | None:
    """A time written as seconds since 1970 (milliseconds are told by their size) as ISO 8601 in UTC, or
    None for anything that is not a positive number."""
    if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
        return None
    seconds = value / 1000 if value > 100_000_000_000 else value
    return datetime.fromtimestamp(seconds, UTC).isoformat().replace("+00:00", "Z")
