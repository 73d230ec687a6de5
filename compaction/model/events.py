"""What each layer did, as records pointing at the original message indices."""

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class PersistedOutput:
    """L3 wrote a tool output to disk and left a preview in its place."""

    index: int | None  # original message index
    tool_use_id: str
    tool: str
    chars: int  # characters of the output
    bytes: int  # bytes of the file on disk
    path: Path
    preview: str  # the text that stayed in context in place of the output
    layer: str = "L3"


@dataclass(frozen=True)
class SnippedRange:
    """L1 (or reactive compaction) dropped these messages from the middle of the history."""

    start: int | None  # first original index dropped
    end: int | None  # last original index dropped (inclusive)
    count: int  # messages dropped, including markers from earlier compactions
    size: int  # characters those messages weighed
    indices: tuple[int, ...] = ()  # every original index dropped
    marker: str = ""
    layer: str = "L1"


@dataclass(frozen=True)
class Placeholder:
    """L2 replaced an old tool result with a short placeholder."""

    index: int | None
    tool_use_id: str
    tool: str
    original_chars: int
    text: str
    layer: str = "L2"


@dataclass(frozen=True)
class SummaryEvent:
    """L4 (or reactive compaction, or the compact tool) asked for a summary."""

    triggered: bool
    reason: str
    summarizer: str = ""
    text: str = ""
    transcript_path: Path | None = None
    error: str | None = None
    summarized_indices: tuple[int, ...] = ()  # original indices the summary replaced
    layer: str = "L4"
    # the tokens the summary call read, where a log says so (the agent's count when it compacted); None:
    # estimated from what it replaced
    input_tokens: int | None = None

    @property
    def succeeded(self) -> bool:
        return self.triggered and self.error is None


@dataclass(frozen=True)
class AppliedEdit:
    """An edit made to one request while the client keeps its full history, reported as the
    Messages API's `context_management.applied_edits` report it (counts for that request)."""

    type: str  # "clear_tool_uses_20250919", "clear_thinking_20251015", or a peer's own name
    cleared_tool_uses: int = 0
    cleared_thinking_turns: int = 0
    cleared_input_tokens: int = 0
    layer: str = ""

    def as_dict(self) -> dict[str, Any]:
        """Only the fields the API reports for this type of edit."""
        counted = "cleared_thinking_turns" if self.type.startswith("clear_thinking") else "cleared_tool_uses"
        return {"type": self.type, counted: getattr(self, counted), "cleared_input_tokens": self.cleared_input_tokens}


@dataclass
class LayerResult:
    """A layer's output: the new history and the records of what changed."""

    history: Any  # History
    events: list = field(default_factory=list)

    @property
    def messages(self) -> list:
        return self.history.messages


def event_dict(event: Any) -> dict[str, Any]:
    """A record as plain JSON-ready data."""
    data = asdict(event)
    for key, value in data.items():
        if isinstance(value, Path):
            data[key] = str(value)
        elif isinstance(value, tuple):
            data[key] = list(value)
    return data
