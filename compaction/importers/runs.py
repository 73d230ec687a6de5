"""Evaluation output files, one agent run a line (an evaluation's `output.jsonl`): each line holds a
run's conversation under `history`. The first run is loaded, with a warning naming how many the file
holds."""

from collections.abc import Callable
from typing import Any

from compaction.errors import ConversationError
from compaction.importers.jsonl import JsonLines
from compaction.model.conversation import Conversation, LoadWarning

# a format's reading of one run: (the part of the line its reader takes, a label) -> the Conversation
Reader = Callable[[Any, str], Conversation]


def is_run_record(value: dict) -> bool:
    """A line of an evaluation's output file: one agent run, its conversation under `history`."""
    return isinstance(value.get("history"), list) and "type" not in value and "role" not in value


def whole_line(row: dict) -> Any:
    """The part of a run's line a format reads when its reader takes the line itself."""
    return row


def runs_of(looks_like: Callable[[Any], bool], part: Callable[[dict], Any]):
    """Recognises JSON lines whose first object is a run of the format whose `looks_like` accepts its
    `part` (which tells one format's runs from another's)."""
    def recognise(objects: list[tuple[int, dict]]) -> bool:
        if not objects or not is_run_record(objects[0][1]):
            return False
        return looks_like(part(objects[0][1]))
    return recognise


def first_run_of(name: str, from_json: Reader, part: Callable[[dict], Any]):
    def load(lines: JsonLines) -> Conversation:
        if not lines.objects or not is_run_record(lines.objects[0][1]):
            raise ConversationError(f"the {name} format is one JSON document, or JSON lines of runs "
                                    "(each with its 'history'), not these JSON lines", where=lines.label)
        number, row = lines.objects[0]
        conversation = from_json(part(row), f"{lines.label}: line {number}")
        if instance_of(row):
            conversation.metadata["instance_id"] = instance_of(row)
        runs = len(lines.objects)
        if runs > 1:
            instance = row.get("instance_id") or number
            conversation.warnings.insert(0, LoadWarning(
                f"the file holds {runs:,} runs, one a line; the first (instance {instance}) is loaded",
                kind="first_run"))
        conversation.source = lines.label
        return conversation
    return load


def instance_of(row: dict) -> str | None:
    found = row.get("instance_id")
    return found if isinstance(found, str) and found.strip() else None
