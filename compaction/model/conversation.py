"""The loaded conversation: messages in Anthropic form plus what loading learned."""

import re
from dataclasses import dataclass, field
from typing import Any

_NUMBERS = re.compile(r"\d[\d,]*")
# the metadata key of what a log says of its whole run (tokens, model, cost, calls): importers/totals.py
RECORDED_TOTALS = "recorded_totals"


@dataclass(frozen=True)
class LoadWarning:
    """A problem that still leaves a usable conversation.

    `index` is the message index in the loaded messages, `line` the source line (JSONL), when known.
    """

    message: str
    index: int | None = None
    line: int | None = None
    kind: str = ""  # what sort of problem, for grouping (see group_warnings); "" groups by the text

    @property
    def group(self) -> str:
        """What groups it with others: its kind, else its text with the numbers taken out."""
        return self.kind or _NUMBERS.sub("#", self.message)

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

    `metadata` holds format-specific facts, e.g. for an agent's session log
    `compact_boundaries` (list of {"index", "trigger", "pre_tokens"}), `sidechain_lines_skipped`,
    `unknown_lines_skipped`, and under RECORDED_TOTALS the run's totals when the log gives them
    (importers/totals.py).

    `usage` is what each model call recorded, for formats that record it (agents' logs): one entry per
    message, a dict with `input_tokens`, `cache_creation_input_tokens`, `cache_read_input_tokens` and
    `output_tokens` at the assistant message the call produced (and `model` and the cache writes by
    lifetime when the log has them: importers/usage.py), None elsewhere and where the log has none. `timestamps` holds each message's time (ISO 8601 text) or None. Both are empty when the format
    records nothing of the kind.
    """

    messages: list[dict[str, Any]]
    system: Any = None
    tools: list[dict[str, Any]] = field(default_factory=list)
    format: str = "anthropic"
    source: str = ""
    warnings: list[LoadWarning] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    usage: list[dict[str, Any] | None] = field(default_factory=list)
    timestamps: list[str | None] = field(default_factory=list)
    # check_pairs of `messages`, computed once by the loader (None: not checked yet)
    pair_problems: list | None = field(default=None, repr=False)

    @property
    def has_usage(self) -> bool:
        return any(entry is not None for entry in self.usage)


@dataclass(frozen=True)
class WarningGroup:
    """Warnings of one kind: how many, and the first few (with their lines and message indices)."""

    kind: str
    count: int
    first: tuple[LoadWarning, ...]

    @property
    def lines(self) -> list[int]:
        return [warning.line for warning in self.first if warning.line is not None]

    @property
    def indices(self) -> list[int]:
        return [warning.index for warning in self.first if warning.index is not None]

    def summary(self) -> str:
        """One line: the first warning's text, the count, and where the first ones are."""
        text = self.first[0].message
        if self.count == 1:
            return str(self.first[0])
        where = []
        if self.lines:
            where.append("lines " + ", ".join(f"{line:,}" for line in self.lines))
        if self.indices:
            where.append("messages " + ", ".join(f"{index:,}" for index in self.indices))
        more = ", ..." if self.count > len(self.first) else ""
        return f"{self.count:,} x {text} (first at {'; '.join(where)}{more})" if where else f"{self.count:,} x {text}"


def group_warnings(warnings: list[LoadWarning], shown: int = 3) -> list[WarningGroup]:
    """Warnings grouped by kind, in order of first appearance, so one frequent kind cannot bury the rest."""
    groups: dict[str, list[LoadWarning]] = {}
    counts: dict[str, int] = {}
    for warning in warnings:
        key = warning.group
        counts[key] = counts.get(key, 0) + 1
        kept = groups.setdefault(key, [])
        if len(kept) < shown:
            kept.append(warning)
    return [WarningGroup(key, counts[key], tuple(first)) for key, first in groups.items()]
