"""Following a case file in this process as it is appended to, a line at a time (or half a line)."""

from pathlib import Path

from compaction.live.follower import Follower, Reported
from compaction.live.session import CallUpdate, CompactionUpdate

CASES = Path(__file__).parent / "cases"


def follow_line_by_line(case: str, target: Path, cut: tuple[int, ...] = (), **options) -> tuple[Follower, list]:
    """Append the case's lines to `target` one at a time (the lines in `cut` in two writes, with a poll
    between), polling after each write; the follower and everything it reported."""
    target.write_bytes(b"")
    follower = Follower(target, **options)
    reported: list[Reported] = []
    for number, line in enumerate((CASES / case).read_bytes().splitlines(keepends=True), start=1):
        pieces = (line[: len(line) // 2], line[len(line) // 2:]) if number in cut else (line,)
        for piece in pieces:
            with open(target, "ab") as handle:
                handle.write(piece)
            reported += follower.poll()
    return follower, reported


def calls(reported: list[Reported]) -> list[Reported]:
    return [item for item in reported if isinstance(item.update, CallUpdate)]


def compactions(reported: list[Reported]) -> list[Reported]:
    return [item for item in reported if isinstance(item.update, CompactionUpdate)]
