"""What one of the log's own compactions carried on: the summary as the agent wrote it, the files it
attached again, the plan and to-do list, and the messages it kept whole.

An agent that knows more of its own compaction records than the generic reading below (the files its log
lists as re-attached, the messages it kept, a summary its server encrypted) registers a reader of its own
under its format's name (agents/base.py `carried_on`); every other log gets `generic_carried_on`: the
summary message the log holds at the compaction, as it is.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from compaction.model.history import History
from compaction.model.messages import content_text

ENCRYPTED = "encrypted by the agent"


@dataclass(frozen=True)
class CarriedOn:
    """What the first call after one compaction carried besides the system prompt and tools."""

    summary: str | None  # the summary as the agent wrote it; None when the log does not hold its text
    summary_chars: int  # characters of the summary message (len(str(message)), as every size here)
    summary_note: str = ""  # why the text is missing ("encrypted by the agent"), or how it was found
    files: tuple[str, ...] = ()  # the files attached again after the summary
    files_note: str = ""  # where the file list comes from (the log's own lines, or the agent's rule)
    plan_and_todos: tuple[tuple[str, int], ...] = ()  # (part, tokens): the plan, skills, to-do list
    kept_messages: tuple[str, ...] = ()  # the texts of the messages kept whole (the person's, kept)
    kept_count: int = 0  # how many messages were kept whole
    kept_note: str = ""  # what the kept messages are, in the agent's words
    extra_text: tuple[str, ...] = field(default=(), repr=False)  # other text the call carried (searched)

    def text(self) -> str:
        """Every text carried on, joined: what a name must be absent from to count as lost."""
        return "\n".join([self.summary or "", *self.files, *self.kept_messages, *self.extra_text])

    def as_dict(self) -> dict:
        return {"summary": self.summary if self.summary is not None else self.summary_note,
                "summary_chars": self.summary_chars, "summary_note": self.summary_note,
                "files": list(self.files), "files_note": self.files_note,
                "plan_and_todos": [{"part": part, "tokens": tokens} for part, tokens in self.plan_and_todos],
                "kept_messages": list(self.kept_messages), "kept_count": self.kept_count, "kept_note": self.kept_note}


# (history, boundary: the log's record, its "index" the summary's message) -> CarriedOn
CarriedReader = Callable[[History, dict], CarriedOn]
_READERS: dict[str, CarriedReader] = {}


def register(format_name: str, reader: CarriedReader) -> CarriedReader:
    """An agent's own reader of what its compactions carried on, for logs of `format_name`."""
    _READERS[format_name] = reader
    return reader


def generic_carried_on(history: History, boundary: dict) -> CarriedOn:
    """The summary message the log holds at the compaction (an agent's summary the importer marked), as it
    is; nothing else is known of what the call carried."""
    index = boundary.get("index")
    if not isinstance(index, int) or index >= len(history.originals) or index not in history.recorded.agent_summaries:
        return CarriedOn(None, 0, "the log holds no summary at this compaction")
    message = history.originals[index]
    return CarriedOn(content_text(message.get("content")), history.prepared.sizes[index])


def carried_on(history: History, boundary: dict, format_name: str | None) -> CarriedOn:
    """What the compaction `boundary` carried on, as the log's agent reads its own records."""
    reader = _READERS.get(format_name or "", generic_carried_on)
    return reader(history, boundary)
