"""JSON lines read tolerantly, for every JSONL format: a line that is not a JSON object is skipped.

Copies of logs carry `//` notes on top; a log still being written ends on a cut-off line. Such lines
are skipped and named in one warning, as agents' own readers skip them; whether the lines left
hold any message is for the format to say. A line nested past the bound is still an error: the bound
protects the stack, and a log is not expected to come near it (orjson stops at 1,024 levels; the
tighter bound is checked on the messages a format keeps).
"""

from dataclasses import dataclass, field

from compaction.importers.source import depth_error, kind_of, loads_line
from compaction.model.conversation import LoadWarning
from compaction.words import plural

SHOWN_LINES = 5  # skipped lines named in the warning; the rest are counted


@dataclass(frozen=True)
class SkippedLine:
    number: int
    reason: str


@dataclass
class JsonLines:
    """The objects of a JSONL file with their line numbers, and the lines skipped."""

    label: str
    objects: list[tuple[int, dict]] = field(default_factory=list)
    skipped: list[SkippedLine] = field(default_factory=list)

    def skipped_warning(self) -> LoadWarning | None:
        if not self.skipped:
            return None
        named = ", ".join(f"line {line.number} ({line.reason})" for line in self.skipped[:SHOWN_LINES])
        more = f" and {len(self.skipped) - SHOWN_LINES:,} more" if len(self.skipped) > SHOWN_LINES else ""
        return LoadWarning(f"{plural(len(self.skipped), 'line')} skipped, not JSON objects: {named}{more}",
                           line=self.skipped[0].number, kind="skipped_lines")

    def first_problem(self) -> str:
        """Words for an error about a file none of whose lines could be used."""
        if not self.skipped:
            return ""
        first = self.skipped[0]
        return f"; line {first.number}: {first.reason}"


def read_lines(data: bytes, label: str) -> JsonLines:
    lines = JsonLines(label)
    raw_lines = data.split(b"\n")
    last = next((n for n in range(len(raw_lines), 0, -1) if raw_lines[n - 1].strip()), 0)
    for number, raw in enumerate(raw_lines, start=1):
        text = raw.strip()
        if not text:
            continue
        if text.startswith(b"//"):
            lines.skipped.append(SkippedLine(number, "a // comment"))
            continue
        try:
            value = loads_line(text)
        except RecursionError:
            raise depth_error(f"{label}: line {number}") from None
        except ValueError as exc:
            lines.skipped.append(SkippedLine(number, _reason(exc, number == last)))
            continue
        if not isinstance(value, dict):
            lines.skipped.append(SkippedLine(number, f"{kind_of(value)}, not an object"))
            continue
        lines.objects.append((number, value))  # nesting: checked on what the format keeps
    return lines


def _reason(exc: ValueError, last: bool) -> str:
    if isinstance(exc, UnicodeDecodeError) or "UTF-8" in getattr(exc, "msg", ""):
        return "not valid UTF-8"
    if last:
        return "the last line is cut off"
    column = getattr(exc, "colno", None)
    return f"not valid JSON at column {column}" if column else "not valid JSON"
