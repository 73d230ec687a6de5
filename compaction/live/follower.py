"""Following one agent's log as it is written: each poll reads what was added since the last one
(sources.py), a format's reader turns its lines into events, the session (session.py) into per-call
records, and every new call and compaction is reported with the forecast as it stood right then.

The format is named, or recognised on the log's first line that says it (notes and meta lines on top
held, then read): one of the agents that register a reader of their lines (formats.py), whose compaction
rules the forecast knows. A file rewritten or truncated is read again from the start, with a new session,
and said. With `allowed` folders (those of COMPACTION_SESSION_FOLDERS) the file's real path is checked
before every read: once it leads outside them, the follow stops with that message and reads nothing more.
"""

from dataclasses import dataclass
from pathlib import Path

from compaction.errors import ConversationError, SettingsError
from compaction.importers.formats import detect_lines
from compaction.live.forecast import Forecast, forecast
from compaction.live.formats import document_format, live_format, live_formats, names, recognise, titles
from compaction.live.places import still_followable
from compaction.live.rules import agent_rule, rule_for
from compaction.live.rules import what_if as what_if_strategies
from compaction.live.session import CallUpdate, CompactionUpdate, LiveSession
from compaction.live.sources import DocumentSource, LineSource
from compaction.strategies import lookup

DETECT_WITHIN = 20  # lines that are not JSON objects (notes on top) before the log must say what it is


@dataclass(frozen=True)
class Restarted:
    reason: str


@dataclass(frozen=True)
class Skipped:
    line: int
    reason: str


@dataclass(frozen=True)
class Gone:
    """The file is not there any more (it may come back: it is then read from the start)."""


@dataclass(frozen=True)
class Reported:
    """An update with the forecasts as they stood right after it."""

    update: object  # CallUpdate | CompactionUpdate | Note | Restarted | Skipped | Gone
    forecast: Forecast | None = None
    what_if: Forecast | None = None


class Follower:
    def __init__(self, path: str | Path, format: str = "auto", what_if: str | None = None,
                 what_if_params: dict | None = None, allowed: list[Path] | None = None):
        if format not in ("auto", *names()):
            raise SettingsError(f"the live view follows {', '.join(names())} logs; got format {format!r}")
        if what_if is not None:
            if what_if not in what_if_strategies():
                raise SettingsError(f"the live forecast knows the rules of {', '.join(what_if_strategies())}; "
                                    f"got {what_if!r}")
            lookup(what_if).resolve(what_if_params)  # bad parameters are said now, not at the first call
        self.path = Path(path)
        self.allowed = None if allowed is None else list(allowed)  # None: any folder
        self.what_if, self.what_if_params = what_if, dict(what_if_params or {})
        self.document = self.path.suffix.lower() == ".json"
        recording = document_format()
        self.source = DocumentSource(self.path, recording.title, recording.is_recording, recording.recording_looks) \
            if self.document and recording else LineSource(self.path)
        self.format = (recording.name if recording else None) if self.document else None if format == "auto" \
            else format
        self.session: LiveSession | None = None
        self._unread: list[Skipped] = []  # lines skipped before the format was known
        self._held: list[tuple[int, dict]] = []  # objects read before the format was known
        self._gone = False
        self._failed: ConversationError | None = None  # a file that is no log stays refused, not read on
        self._start()

    def _start(self) -> None:
        entry = live_format(self.format) if self.format is not None else None
        self._reader = None if entry is None else entry.document() if self.document and entry.document \
            else entry.lines()
        self.session = LiveSession(self.format) if self.format else None

    @property
    def title(self) -> str:
        return live_format(self.format).title if self.format else "not recognised yet"

    def poll(self, max_bytes: int | None = None, forecasts: bool = True) -> list[Reported]:
        """What was written since the last poll (see `updates`), as a list."""
        return list(self.updates(max_bytes, forecasts))

    def updates(self, max_bytes: int | None = None, forecasts: bool = True):
        """Each update written since the last poll, given as it is read (a large file is never held in
        updates). ConversationError names the file (and line) when it cannot be followed; OSError when
        it cannot be opened. `forecasts=False` leaves the forecasts out (the dashboard asks for the
        newest one only)."""
        if self._failed is not None:
            raise self._failed
        try:
            still_followable(self.path, self.allowed)
        except ConversationError as error:  # a link out of the folders, or a folder moved: stop for good
            self._failed = error
            raise
        try:
            reason = self.source.check()
        except ConversationError as error:  # a document that is no recording
            self._failed = error
            raise
        except FileNotFoundError:
            if not self.source.reads:
                raise ConversationError("no such file", where=str(self.path)) from None
            if not self._gone:
                self._gone = True
                yield Reported(Gone())
            return
        if self._gone and reason is None:  # back after it was removed: another file, whatever it holds
            reason = "the file came back after it was removed"
            self.source.restart(reason)
            reason = self.source.check() or reason
        self._gone = False
        if reason is not None:
            self._held = []
            self._start()  # a new session; the format stays the one recognised
            yield Reported(Restarted(reason))
        for number, value in self.source.records(max_bytes):
            if isinstance(value, str):
                yield Reported(self._skip(number, value))
                continue
            waiting = [(number, value)]
            if self._reader is None:
                waiting = self._recognise(number, value)
            reader, session = self._reader, self.session
            if reader is None or session is None:  # held: a meta line, until a line says whose log it is
                continue
            for line, found in waiting:
                for event in reader.read(line, found):
                    update = session.feed(event)
                    if update is not None:
                        yield self._report(update, forecasts)

    def _skip(self, number: int, reason: str) -> Skipped:
        skipped = Skipped(number, reason)
        if self.session is not None:
            self.session.lines_skipped += 1
            return skipped
        self._unread.append(skipped)
        if len(self._unread) >= DETECT_WITHIN:
            first = self._unread[0]
            self._failed = ConversationError(f"{len(self._unread):,} lines and none is a JSON object of a "
                                             f"{titles()} log (line {first.line}: {first.reason})",
                                             where=str(self.path))
            raise self._failed
        return skipped

    def _recognise(self, number: int, value: dict) -> list[tuple[int, dict]]:
        """The objects to read once the format is known (this one, and those held before it), or none yet.
        A line no follower knows (a log's meta line, `fork-context-ref`) is held until one that says the
        format comes; after DETECT_WITHIN of them, the format is the one `replay` would read the file as. A
        line that `replay` would read as a log no follower knows is refused at once."""
        self._held.append((number, value))
        found = recognise(value)
        if found is None:
            read_as = detect_lines(self._held).name  # what `replay` would read the lines so far as
            if read_as not in names():  # another kind of file: said now, nothing more is read
                looks = ", ".join(entry.looks for entry in live_formats())
                self._failed = ConversationError(f"not a line of a {titles()} log: the live view follows those "
                                                 f"({looks})", where=f"{self.path}: line {self._held[0][0]}")
                raise self._failed
            if len(self._held) < DETECT_WITHIN:
                return []  # a meta line: the next lines say whose log it is
            found = read_as
        self.format = found
        self._start()
        if self.session is not None:  # _start made it: the format is known now
            self.session.lines_skipped = len(self._unread)
        self._unread = []
        held, self._held = self._held, []
        return held

    def _report(self, update, forecasts: bool) -> Reported:
        if not forecasts or not isinstance(update, CallUpdate | CompactionUpdate):
            return Reported(update)
        return Reported(update, self.forecast(), self.what_if_forecast())

    def forecast(self) -> Forecast | None:
        """The agent's own compaction, as its checked preset says."""
        return forecast(self.session, agent_rule(self.session)) if self.session else None

    def what_if_forecast(self) -> Forecast | None:
        if self.what_if is None or self.session is None:
            return None
        return forecast(self.session, rule_for(self.what_if, self.what_if_params, self.session))
