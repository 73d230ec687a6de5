"""`compaction watch FILE`: follow an agent's log as it is written and print one line per new model call
(call, tokens, growth, the tokens and calls left to the agent's compaction, cost so far), or with
`--json` one JSON object a line (compaction/live/report.py lists them). Stops on Ctrl-C (SIGINT) or
SIGTERM, or after `--until-idle SECONDS` without anything new in the file. Both signals get a handler of
the watcher's own: a process started in the background inherits SIGINT ignored, and Python then installs
no KeyboardInterrupt for it, so Ctrl-C (or a test's SIGINT) would not stop it. On a shared server only files inside the
folders of COMPACTION_SESSION_FOLDERS may be followed, checked again before every read: a file that
comes to lead outside them (a link put in its place) stops the watch with one line, status 2."""

import argparse
import signal
import sys
import time
from pathlib import Path

from compaction.access import session_folders
from compaction.cli.common import write_json
from compaction.errors import CompactionError, SettingsError
from compaction.importers import load_conversation
from compaction.live.follower import Follower
from compaction.live.formats import document_format, names, titles
from compaction.live.places import followable
from compaction.live.report import as_json, as_text, read_json
from compaction.live.rules import what_if
from compaction.measures.branches_paid import paid_and_final
from compaction.strategies import lookup

POLL_SECONDS = 0.5


def add_command(commands) -> None:
    recording = document_format()
    parser = commands.add_parser(
        "watch", help="follow an agent's log as it is written: each new call, and how far the next compaction is",
        description=f"Follow a {titles()} log while the agent writes it. Each new model "
                    "call is one line: its tokens, how much the context grew, the tokens and calls left before the "
                    "agent compacts (its checked preset, at the session's recent growth per call) and the cost so "
                    "far. Ctrl-C stops.")
    parser.add_argument("file", type=Path, help="the session log (.jsonl"
                        + (f", or a {recording.title} .json recording)" if recording else ")"))
    parser.add_argument("--format", choices=("auto", *names()), default="auto", help="the log's format "
                        "(default: recognised on its first line)")
    parser.add_argument("--json", action="store_true", help="one JSON object a line instead of text")
    parser.add_argument("--until-idle", type=float, default=None, metavar="SECONDS",
                        help="stop once the file has not changed for this long (default: only Ctrl-C stops)")
    parser.add_argument("--every", type=float, default=POLL_SECONDS, metavar="SECONDS",
                        help=f"how often the file is looked at (default {POLL_SECONDS})")
    parser.add_argument("--strategy", choices=what_if(), default=None,
                        help="a what-if strategy: its forecast is printed beside the agent's")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="a parameter of the what-if strategy (repeatable; `compaction strategies` lists them)")
    parser.add_argument("--reads", action="store_true",
                        help="also print each read of the file: the offsets it started and ended at")
    parser.set_defaults(handler=watch)


def watch(args: argparse.Namespace) -> int:
    if args.every <= 0 or args.until_idle is not None and args.until_idle < 0:
        raise SettingsError("--every must be above 0 seconds and --until-idle at least 0")
    if args.param and not args.strategy:
        raise SettingsError("--param sets a parameter of the what-if strategy: give --strategy too")
    allowed = session_folders()
    path = followable(args.file, allowed)
    params = lookup(args.strategy).parse(args.param) if args.strategy else {}
    follower = Follower(path, args.format, args.strategy, params, allowed)
    say = _printer(args.json, follower.source.unit)
    reads_seen, seen, quiet_since = 0, None, time.monotonic()
    stop = _stop_on_signals()
    reason = "interrupted"
    try:
        while not stop:
            for reported in follower.updates():
                say(reported)
            if args.reads:
                for read in [read for read in follower.source.reads if read.number > reads_seen]:
                    _emit(args.json, read_json(read), _read_text(read, follower.source.unit))
                    reads_seen = read.number
            sys.stdout.flush()
            now = (follower.source.offset, follower.source.partial, follower.source.restarts)
            if now != seen:
                seen, quiet_since = now, time.monotonic()
            elif args.until_idle is not None and time.monotonic() - quiet_since >= args.until_idle:
                reason = "idle"
                break
            time.sleep(args.every)
    except KeyboardInterrupt:
        stop.append(signal.SIGINT)
    if stop:
        reason = "terminated" if stop[0] == signal.SIGTERM else "interrupted"
    session = follower.session
    calls = len(session.calls) if session else 0
    cost = session.cost_usd if session else 0.0
    branches = _branches(path, args.format)
    _emit(args.json, {"event": "stopped", "reason": reason, "calls": calls, "cost_so_far_usd": round(cost, 6),
                      "offset": follower.source.offset, "reads": follower.source.reads[-1].number
                      if follower.source.reads else 0, "restarts": follower.source.restarts, "branches": branches},
          f"stopped ({_SAID[reason]}): {calls:,} calls, ${cost:,.4f} so far"
          + (f"; the file as Replay reads it: {branches['sentence']}" if branches else ""))
    sys.stdout.flush()
    return 0


def _branches(path: Path, form: str) -> dict | None:
    """The calls paid and those of the final branch, as every page counts them (Live counts each call it
    sees, on whichever branch; Replay the final branch's): the file as it stands, or None when it cannot
    be read whole (a line still being written)."""
    try:
        conversation = load_conversation(path, format=form)
    except CompactionError:
        return None
    return paid_and_final(conversation).as_dict()


_SAID = {"idle": "idle", "interrupted": "Ctrl-C", "terminated": "SIGTERM"}


def _stop_on_signals() -> list[int]:
    """SIGINT and SIGTERM each note themselves in the list returned; the loop stops before its next read, so
    no line is left half printed."""
    received: list[int] = []

    def note(number: int, _frame) -> None:
        received.append(number)
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, note)
    return received


def _printer(json_lines: bool, unit: str):
    def say(reported) -> None:
        if json_lines:
            write_json(as_json(reported, unit), None)
        else:
            print(as_text(reported, unit))
    return say


def _emit(json_lines: bool, data: dict, text: str) -> None:
    if json_lines:
        write_json(data, None)
    else:
        print(text)


def _read_text(read, unit: str) -> str:
    restarted = f" (from the start: {read.restarted})" if read.restarted else ""
    waiting = f"; {read.partial:,} bytes of a line not finished yet" if read.partial else ""
    return f"read {read.number:,}: bytes {read.start:,} to {read.end:,}, {read.lines:,} new {unit}s{waiting}{restarted}"
