"""The compacting client's trace: one JSON line per model call, which the lab loads back as a session
(compaction/importers/trace.py, the `compaction-trace` format).

The first line names the strategy, its parameters and the settings; each call's line holds the messages
the caller added since the call before, what was sent (an original message by its index, a message a
layer made or changed written out), what the layers did, and the response with the usage the API
answered. Each line is appended and flushed as the call returns, so a trace of an agent that stopped
half way still reads back up to its last call.
"""

import json
from dataclasses import asdict, is_dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from compaction.importers.trace import CALL, HEADER, VERSION
from compaction.model.events import AppliedEdit, event_dict
from compaction.model.history import History
from compaction.version import __version__


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def sent_items(history: History) -> list:
    """What a call sent: the index of each original message sent unchanged, each other message whole."""
    return [history.origins[position] if history.is_original(position) else message
            for position, message in enumerate(history.messages)]


def event_record(event: Any) -> dict:
    data = event_dict(event) if is_dataclass(event) else {"text": str(event)}
    if isinstance(event, AppliedEdit):
        data = {**asdict(event), **event.as_dict()}
    return {"kind": type(event).__name__, **data}


class TraceWriter:
    def __init__(self, path: str | Path, header: dict):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._last_request: tuple = (None, None)
        self.path.write_text("", encoding="utf-8")  # a new trace for a new client
        self._write({"type": HEADER, "version": VERSION, "compaction_lab": __version__, "created": now(), **header})

    def call(self, record: dict, system: Any, tools: Any) -> None:
        """One call's line; the system prompt and tools are written when they differ from the call before."""
        line = {"type": CALL, "time": now(), **record}
        if (system, tools) != self._last_request:
            line["system"], line["tools"] = system, tools
            self._last_request = (system, tools)
        self._write(line)

    def _write(self, data: dict) -> None:
        try:
            text = json.dumps(data, ensure_ascii=False, default=str)
            text.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates from the input: escaped, as the CLI's JSON does
            text = json.dumps(data, ensure_ascii=True, default=str)
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(text + "\n")
