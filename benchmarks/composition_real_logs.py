"""How close what fills the context comes to what the log recorded, on real logs: for calls of every log
in a folder (the last by default, or every Nth), the kinds measured from the messages (the token model's
estimate of their characters, before any scaling to the recorded figure) against the context the log
recorded for that call.

    .venv/bin/python benchmarks/composition_real_logs.py DIR [--every N]

A kind the log does not hold ("not in the log": what the agent carried beyond its messages, such as files
re-read after a compaction) is not counted in the estimate, so a gap here is a gap in what the kinds
explain: a log that compacted, or that continues another session, carries more than its messages. Prints
one line per log, then how many calls came within 5 % and 10 % and the median gap, over every log and over
the logs that hold their whole history.
"""

import argparse
import statistics
import sys
from pathlib import Path

from compaction.errors import ConversationError
from compaction.importers import load_conversation
from compaction.importers.formats import suffixes
from compaction.measures.composition_tokens import sent_composition
from compaction.model.history import prepare

MIN_CALLS = 10  # a shorter log cannot calibrate the token model on its own calls


def gaps(path: Path, every: int | None) -> tuple[list[float], bool]:
    """estimated / recorded - 1 at the calls asked of one log (calls without recorded usage left out), and
    whether the log holds its whole history: it never compacted, and its first call was made on it (not a
    session resumed or continued from another, whose first call already carries more than its messages)."""
    history = prepare(load_conversation(path))
    calls = [i for i, message in enumerate(history.messages) if message.get("role") == "assistant"]
    picked = calls[::every] if every else calls[-1:]
    found = []
    for index in picked:
        composition, _sent = sent_composition(history, index)
        if composition.recorded_tokens:
            found.append(composition.estimated_tokens / composition.recorded_tokens - 1)
    return found, not history.recorded.boundaries and len(calls) >= MIN_CALLS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--every", type=int, default=None, help="every Nth call instead of the last")
    args = parser.parse_args()
    endings = tuple(suffixes())
    everything: list[float] = []
    whole: list[float] = []  # of logs that hold their whole history
    for path in sorted(p for p in args.folder.iterdir() if p.is_file() and p.name.endswith(endings)):
        try:
            found, holds_all = gaps(path, args.every)
        except ConversationError as error:
            print(f"{path.name[:60]:60}  not read: {error}")
            continue
        if found:
            everything.extend(found)
            whole.extend(found if holds_all else [])
            print(f"{path.name[:60]:60}  {len(found):>4} calls  median {statistics.median(found):+.1%}"
                  f"{'' if holds_all else '  (compacted, resumed or short)'}")
    if not everything:
        print("no call with recorded usage")
        return 1
    print()
    summary("every log", everything)
    summary(f"logs that hold their whole history (never compacted, {MIN_CALLS}+ calls)", whole)
    return 0


def summary(title: str, found: list[float]) -> None:
    if not found:
        print(f"{title}: no call")
        return
    within = {limit: sum(1 for gap in found if abs(gap) <= limit) for limit in (0.05, 0.10)}
    print(f"{title}: {len(found)} calls; within 5 % {within[0.05]} ({within[0.05] / len(found):.0%}), "
          f"within 10 % {within[0.10]} ({within[0.10] / len(found):.0%}); median gap "
          f"{statistics.median(found):+.1%}, median |gap| {statistics.median(abs(g) for g in found):.1%}")


if __name__ == "__main__":
    sys.exit(main())
