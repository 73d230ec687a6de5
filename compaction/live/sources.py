"""Where a follower's records come from: the lines of a JSONL log read from the last offset (tail.py), or
the messages of a chat recording (a JSON document its agent rewrites whole at every message:
live/formats.py names the agent whose recordings are followed this way), so it can only be read whole each time it changes; its messages already read
are recognised and left out.

Both give (number, object) pairs, or (number, reason) for a line that is not a JSON object (skipped and
counted, as the importers skip them), and keep the offsets of their last reads.
"""

import os
from collections import deque
from pathlib import Path

from compaction.errors import ConversationError
from compaction.importers.source import kind_of, loads_line
from compaction.live.tail import KEPT_READS, FileTail, Read

DOCUMENT_LIMIT = 200 * 1024 * 1024  # bytes: the largest upload the dashboard takes, for a document read whole


class LineSource:
    unit = "line"
    whole = False  # each read starts where the last one ended

    def __init__(self, path: Path):
        self.tail = FileTail(path)

    def check(self) -> str | None:
        return self.tail.check()

    def restart(self, reason: str) -> None:
        self.tail.restart(reason)

    def records(self, max_bytes: int | None = None):
        for number, raw in self.tail.lines(max_bytes):
            text = raw.strip()
            if not text:
                continue
            if text.startswith(b"//"):
                yield number, "a // comment"
                continue
            try:
                value = loads_line(text)
            except (ValueError, RecursionError):
                yield number, "not valid JSON"
                continue
            yield (number, value) if isinstance(value, dict) else (number, f"{kind_of(value)}, not an object")

    @property
    def reads(self) -> deque[Read]:
        return self.tail.reads

    @property
    def restarts(self) -> int:
        return self.tail.restarts

    @property
    def offset(self) -> int:
        return self.tail.offset

    @property
    def partial(self) -> int:
        return self.tail.partial


class DocumentSource:
    unit = "message"
    whole = True  # the file is rewritten whole: every read reads it all

    REFEED = 2  # the newest messages read again: the agent rewrites the last one as it fills in

    def __init__(self, path: Path, title: str = "chat", is_recording=None, looks: str = "an object with a 'messages' list"):
        """`is_recording(value)`: whether a parsed document is such a recording (a dict with `messages`)."""
        self.path = Path(path)
        self.title, self.looks = title, looks
        self.is_recording = is_recording or (lambda value: isinstance(value, dict) and isinstance(value.get("messages"), list))
        self.reads: deque[Read] = deque(maxlen=KEPT_READS)
        self.restarts = 0
        self.offset = 0
        self.partial = 0
        self._stamp: tuple | None = None
        self._seen = 0  # messages read
        self._last_id: str | None = None  # the id of the last message read
        self._messages: list | None = None  # parsed by check(), given by records()
        self._restarted: str | None = None

    def check(self) -> str | None:
        info = os.stat(self.path)
        stamp = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
        if stamp == self._stamp:
            return None
        if info.st_size > DOCUMENT_LIMIT:
            raise ConversationError(f"a {info.st_size:,}-byte chat recording is over the {DOCUMENT_LIMIT:,}-byte "
                                    "limit for a document read whole", where=str(self.path))
        data = self.path.read_bytes()
        try:
            value = loads_line(data)
        except (ValueError, RecursionError):
            self.partial = len(data)  # being written: read it again at the next poll
            return None
        if not self.is_recording(value):
            raise ConversationError(f"a .json file is followed as a {self.title} chat recording ({self.looks}), and "
                                    "this one is not", where=str(self.path))
        messages = value["messages"]
        self._stamp, self.partial = stamp, 0
        reason = None
        if self._seen and (len(messages) < self._seen or _id(messages[self._seen - 1]) != self._last_id):
            reason = "the recording was rewritten: messages already read have changed (a rewind?)"
            self.restart(reason)
        self._messages = messages
        self.offset = len(data)
        return reason

    def restart(self, reason: str) -> None:
        """Count every message as new at the next read, for `reason`."""
        self._seen, self._last_id = 0, None
        self.restarts += 1
        self._restarted = reason

    def records(self, max_bytes: int | None = None):
        messages, self._messages = self._messages, None
        if messages is None:
            return
        start = max(self._seen - self.REFEED, 0)
        for position in range(start, len(messages)):
            yield position + 1, messages[position]
        new = len(messages) - self._seen
        self._seen = len(messages)
        self._last_id = _id(messages[-1]) if messages else None
        if new or self._restarted:
            self.reads.append(Read(len(self.reads) + 1 if not self.reads else self.reads[-1].number + 1, 0,
                                   self.offset, new, 0, self._restarted))
            self._restarted = None


def _id(message) -> str | None:
    return message.get("id") if isinstance(message, dict) and isinstance(message.get("id"), str) else None
