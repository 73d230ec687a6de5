"""Evaluation output files, one agent run a line (`output.jsonl` of OpenHands or SWE-agent runs): each
line holds a run's conversation under `history`. The first run is loaded, with a warning naming how
many the file holds."""

from types import ModuleType

from compaction.errors import ConversationError
from compaction.importers.jsonl import JsonLines
from compaction.model.conversation import Conversation, LoadWarning


def is_run_record(value: dict) -> bool:
    """A line of an evaluation's output file: one agent run, its conversation under `history`."""
    return isinstance(value.get("history"), list) and "type" not in value and "role" not in value


def runs_of(loader: ModuleType):
    """Recognises JSON lines whose first object is a run of `loader`'s format (its `looks_like` decides
    between OpenHands events and SWE-agent messages)."""
    def recognise(objects: list[tuple[int, dict]]) -> bool:
        if not objects or not is_run_record(objects[0][1]):
            return False
        row = objects[0][1]
        return loader.looks_like(row if loader.FORMAT == "swe-agent" else row["history"])
    return recognise


def first_run_of(loader: ModuleType):
    def load(lines: JsonLines) -> Conversation:
        if not lines.objects or not is_run_record(lines.objects[0][1]):
            raise ConversationError(f"the {loader.FORMAT} format is one JSON document, or JSON lines of runs "
                                    "(each with its 'history'), not these JSON lines", where=lines.label)
        number, row = lines.objects[0]
        conversation = loader.from_json(row if loader.FORMAT == "swe-agent" else row["history"],
                                        f"{lines.label}: line {number}")
        runs = len(lines.objects)
        if runs > 1:
            name = row.get("instance_id") or number
            conversation.warnings.insert(0, LoadWarning(
                f"the file holds {runs:,} runs, one a line; the first (instance {name}) is loaded", kind="first_run"))
        conversation.source = lines.label
        return conversation
    return load
