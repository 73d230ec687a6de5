"""A log's optional fields, read as the kind a reader expects: the value when it is of that kind, else
an empty one. A log is JSON another program wrote, so any field may be missing or of another kind; these
say `line.get(key) if isinstance(line.get(key), dict) else {}` in one call, with its type."""

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
