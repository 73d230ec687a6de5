"""The loaded conversation: messages in Anthropic form plus what loading learned."""

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class LoadWarning:
    """A problem that still leaves a usable conversation.

    `index` is the message index in the loaded messages, `line` the source line (JSONL), when known.
    """

    message: str
    index: int | None = None
    line: int | None = None

    def __str__(self) -> str:
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.index is not None:
            where.append(f"message {self.index}")
        return f"{', '.join(where)}: {self.message}" if where else self.message


@dataclass
class Conversation:
    """Messages in Anthropic Messages form, with the system prompt and tools they were sent with.

    `metadata` holds format-specific facts, e.g. for Claude Code sessions
    `compact_boundaries` (list of {"index", "trigger", "pre_tokens"}), `sidechain_lines_skipped`,
    `unknown_lines_skipped`.

    `usage` is what each model call recorded, for formats that record it (Claude Code): one entry per
    message, a dict with `input_tokens`, `cache_creation_input_tokens`, `cache_read_input_tokens` and
    `output_tokens` at the assistant message the call produced, None elsewhere and where the log has
    none. `timestamps` holds each message's time (ISO 8601 text) or None. Both are empty when the format
    records nothing of the kind.
    """

    messages: list[dict[str, Any]]
    system: Any = None
    tools: list[dict[str, Any]] = field(default_factory=list)
    format: str = "anthropic"
    source: str = ""
    warnings: list[LoadWarning] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    usage: list[dict[str, int] | None] = field(default_factory=list)
    timestamps: list[str | None] = field(default_factory=list)

    @property
    def has_usage(self) -> bool:
        return any(entry is not None for entry in self.usage)
