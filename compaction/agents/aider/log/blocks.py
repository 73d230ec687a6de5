"""The lines of `.aider.chat.history.md` as blocks, in the order aider wrote them (aider/io.py).

- `# aider chat started at <time>`: a run of aider begins (InputOutput.__init__);
- `#### ` lines: what the person typed, one message per group of consecutive lines (user_input: each
  line prefixed, a blank line before the group);
- `> ` lines (or a bare `>`): a notice, the answer to a question, an error, the Tokens line
  (append_chat_history with blockquote=True);
- every other line: the model's reply (ai_output: its text between blank lines).

Aider ends each thing it appends with two spaces (a markdown line break): every line of the person's
input, and the last line of a notice. A notice of several lines has only its first line prefixed, so a
notice line without the two spaces (after its text: three or more are the text's own) goes on, blank lines included, through the next line that has them
(the Tokens line's `Cost:` part, an edit error, a shell command's output). A `#### ` line without them
is a heading of a reply. A file that never writes the two spaces (an older aider) is read by position:
a notice goes on over the lines right after it, and every `#### ` line is the person's.
"""

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

RUN = re.compile(r"^# aider chat started at (\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d)")
PERSON = "#### "
LINE_BREAK = "  "  # what aider ends an appended line with


@dataclass
class Block:
    kind: str  # "run", "person", "notice", "reply"
    line: int  # the first line's number, from 1
    lines: list[str] = field(default_factory=list)  # without the prefix and aider's two-space line ends

    @property
    def text(self) -> str:
        return "\n".join(self.lines).strip("\n")


def ends_item(line: str) -> bool:
    """Whether a line is the last of what aider appended: its own spaces stripped, then two added (an
    inner line keeps its own, so three or more spaces say nothing)."""
    return line.endswith(LINE_BREAK) and (len(line) < 3 or not line[-3].isspace())


def is_notice(line: str) -> bool:
    return line.startswith("> ") or line.rstrip() == ">"


def _person_text(line: str) -> str:
    body = line[len(PERSON):]
    return body[:-2] if body.endswith(LINE_BREAK) else body


def _notice_text(line: str) -> str:
    return line[2:].rstrip() if line.startswith("> ") else ""


class _Reader:
    def __init__(self, marked: bool):
        self.marked = marked  # the file ends what it appends with two spaces
        self.current: Block | None = None
        self.open = False  # the current notice goes on over the next lines
        self.previous_blank = True

    def read(self, number: int, line: str) -> Iterator[Block]:
        current = self.current
        started = RUN.match(line)
        if started:
            yield from self.flush()
            yield Block("run", number, [started.group(1)])
        elif self._is_person(line, current):
            if current is None or current.kind != "person" or self.previous_blank:
                yield from self.flush()
                current = self.current = Block("person", number)
            current.lines.append(_person_text(line))
        elif is_notice(line):
            yield from self.flush()
            self.current = Block("notice", number, [_notice_text(line)])
            self.open = not ends_item(line) if self.marked else True
        elif current is not None and current.kind == "notice" and self.open and (self.marked or not self.previous_blank
                                                                                 or not line.strip()):
            current.lines.append(line.rstrip())
            if self.marked and ends_item(line):
                self.open = False
        elif not line.strip():
            if current is not None and current.kind == "reply":
                current.lines.append("")
            elif current is None or current.kind != "notice" or self.marked:
                yield from self.flush()
        elif current is not None and current.kind == "reply":
            current.lines.append(line)
        else:
            yield from self.flush()
            self.current = Block("reply", number, [line])
        self.previous_blank = not line.strip()

    def _is_person(self, line: str, current: Block | None) -> bool:
        if not line.startswith(PERSON):
            return False
        return not self.marked or line.endswith(LINE_BREAK) or (
            current is not None and current.kind == "person" and not self.previous_blank)

    def flush(self) -> Iterator[Block]:
        if self.current is not None:
            yield self.current
        self.current = None
        self.open = False


def read_blocks(text: str) -> Iterator[Block]:
    lines = text.splitlines()
    marked = any(line.endswith(LINE_BREAK) and (line.startswith(PERSON) or is_notice(line)) for line in lines)
    reader = _Reader(marked)
    for number, line in enumerate(lines, 1):
        yield from reader.read(number, line)
    yield from reader.flush()
