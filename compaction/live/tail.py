"""Reading a file another process is still writing: only the bytes after the last offset, and only whole
lines. An agent appends its log a line at a time, and a read can land in the middle of a line: that
half is left where it is (the offset stays at its start) and read whole by the next poll.

Before each poll the file is checked against what was read: a file now shorter than the offset was
truncated; one whose bytes at the start, just before the offset or at SPREAD points between changed was
rewritten in place, and so was one whose time changed while its size stayed the one last read (an agent
only appends: a rewrite of the same size moves nothing else); one with another inode was replaced (an
editor's save, a rotation). Either way it is read again from the start, and the reason is given. The
check reads (2 + SPREAD) x PROBE bytes, not the file.

What is kept: the offset, the line count, the file's identity, its size and time at the end of the last
read, the PROBE-byte fingerprints and the last KEPT_READS reads (their offsets), never the text.
"""

import os
from collections import deque
from dataclasses import dataclass
from pathlib import Path

CHUNK = 1 << 20  # bytes read at a time: a large file is never held whole
PROBE = 64  # bytes compared at the start, before the offset and at the points between
SPREAD = 8  # points between the start and the offset whose bytes are compared
KEPT_READS = 50


@dataclass(frozen=True)
class Read:
    """One poll that found new bytes: where it started and ended (the end is after its last whole line)."""

    number: int  # 1 for the first read of the file
    start: int
    end: int
    lines: int  # whole lines read
    partial: int  # bytes after `end`: a line still being written, left for the next read
    restarted: str | None = None  # why this read began at the start again


class FileTail:
    def __init__(self, path: Path, keep_reads: int = KEPT_READS):
        self.path = Path(path)
        self.offset = 0  # after the last whole line read
        self.line = 0  # number of the last whole line read
        self.restarts = 0  # times the file was read again from the start
        self.reads: deque[Read] = deque(maxlen=keep_reads)
        self.read_count = 0
        self.partial = 0  # bytes of an unfinished last line at the last poll
        self._identity: tuple[int, int] | None = None
        self._head = b""  # the first PROBE bytes read
        self._before = b""  # the PROBE bytes before the offset
        self._between: list[tuple[int, bytes]] = []  # (position, PROBE bytes) at SPREAD points before the offset
        self._stamp: tuple[int, int] | None = None  # (size, time in ns) when the last read ended
        self._restarted: str | None = None

    def check(self) -> str | None:
        """Why the file must be read again from the start (and the offset is back at 0), or None.
        OSError (FileNotFoundError, PermissionError) when it cannot be opened."""
        info = os.stat(self.path)
        identity = (info.st_dev, info.st_ino)
        reason = None
        if self._identity is not None and identity != self._identity:
            reason = "the file was replaced by another one"
        elif info.st_size < self.offset:
            reason = f"the file was truncated ({info.st_size:,} bytes, {self.offset:,} had been read)"
        elif self.offset and not self._same_bytes():
            reason = "the file was rewritten: bytes already read have changed"
        elif self.offset and self._stamp is not None and self._stamp[0] == info.st_size \
                and self._stamp[1] != info.st_mtime_ns:
            reason = "the file was rewritten: its time changed and its size did not"
        self._identity = identity
        if reason is not None:
            self.restart(reason)
        return reason

    def restart(self, reason: str) -> None:
        """Read the file again from the start at the next read, for `reason`."""
        self.offset = self.line = self.partial = 0
        self._head = self._before = b""
        self._between, self._stamp = [], None
        self.restarts += 1
        self._restarted = reason

    def _same_bytes(self) -> bool:
        with open(self.path, "rb") as handle:
            head = handle.read(len(self._head))
            handle.seek(self.offset - len(self._before))
            before = handle.read(len(self._before))
            if head != self._head or before != self._before:
                return False
            for position, probe in self._between:
                handle.seek(position)
                if handle.read(len(probe)) != probe:
                    return False
        return True

    def lines(self, max_bytes: int | None = None):
        """Each whole line written since the last read, as (line number, bytes without the newline). With
        `max_bytes`, stops at the first line end past that many bytes: the rest waits for the next read.
        Consume it fully: the offset moves as lines are given."""
        start, count = self.offset, 0
        pending = b""
        with open(self.path, "rb") as handle:
            handle.seek(self.offset)
            while max_bytes is None or self.offset - start < max_bytes:
                chunk = handle.read(CHUNK)
                if not chunk:
                    break
                pending += chunk
                cut = pending.rfind(b"\n")
                if cut < 0:
                    continue  # a line longer than a chunk: keep reading
                whole, pending = pending[:cut], pending[cut + 1:]
                for raw in whole.split(b"\n"):
                    self.line += 1
                    count += 1
                    self.offset += len(raw) + 1
                    yield self.line, raw
                    if max_bytes is not None and self.offset - start >= max_bytes:
                        break
                else:
                    continue
                pending = b""  # stopped at max_bytes: what follows is read next time
                break
            if self.offset > start:
                self._remember(handle)
            handle.seek(0, os.SEEK_END)
            partial, self.partial = self.partial, handle.tell() - self.offset
            info = os.fstat(handle.fileno())
            self._stamp = (info.st_size, info.st_mtime_ns)
        # a read is recorded when it found lines, restarted, or found more of a line being written
        if self.offset > start or self._restarted or self.partial not in (0, partial):
            self.read_count += 1
            self.reads.append(Read(self.read_count, start, self.offset, count, self.partial, self._restarted))
            self._restarted = None

    def _remember(self, handle) -> None:
        handle.seek(0)
        self._head = handle.read(min(PROBE, self.offset))
        size = min(PROBE, self.offset)
        handle.seek(self.offset - size)
        self._before = handle.read(size)
        self._between = []
        for point in range(1, SPREAD + 1):
            position = self.offset * point // (SPREAD + 1)
            handle.seek(position)
            self._between.append((position, handle.read(min(PROBE, self.offset - position))))

    @property
    def last_read(self) -> Read | None:
        return self.reads[-1] if self.reads else None
