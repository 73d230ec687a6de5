"""Whether the claude-code preset makes the person's own compactions where the person did, and the automatic
ones after them near where Claude Code did, on public Claude Code logs kept outside the project.

    .venv/bin/python benchmarks/person_compactions_real_logs.py DIR [--json]

For every log under DIR whose person typed /compact (a compact_boundary of trigger "manual"), the claude-code
preset with no flags, one row per compaction of the log: the call the log compacted before against the
preset's. Targets: each of the person's within 1 call; each automatic one after the person's first within 3
calls (an automatic one before it is the agent's alone: benchmarks/fidelity_real_logs.py). Counted on both
parts of the split by repository (holdout.py).
"""

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # holdout.py, beside this script
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's engine, not an installed one

from holdout import PARTS, part_of  # noqa: E402

from compaction import load_conversation, replay
from compaction.errors import ConversationError
from compaction.replay.fidelity import fidelity
from compaction.strategies import build

PERSON, AUTOMATIC = 1, 3  # calls apart allowed
MARK = '"trigger":"manual"'


def has_person_compaction(path: Path) -> bool:
    try:
        with path.open(encoding="utf-8", errors="replace") as lines:
            return any(MARK in line for line in lines)
    except OSError:
        return False


def check(path: Path) -> list[dict]:
    try:
        conversation = load_conversation(path)
    except ConversationError as error:
        return [{"file": path.name, "path": str(path), "part": part_of(path), "error": str(error)}]
    if not conversation.metadata.get("compact_boundaries"):
        return []
    result = replay(conversation, strategy=build("claude-code"), keep_histories=False)
    rows, person_seen = [], False
    for rank, pair in enumerate(fidelity(result).pairs):
        person = pair.trigger == "manual"
        person_seen = person_seen or person
        kind = "person" if person else "auto after" if person_seen else "auto before"
        allowed = PERSON if person else AUTOMATIC if person_seen else None
        met = None if allowed is None or pair.log_call is None else (
            pair.calls_apart is not None and abs(pair.calls_apart) <= allowed)
        rows.append({"file": path.name, "path": str(path), "part": part_of(path), "compaction": rank + 1,
                     "kind": kind, "log_call": pair.log_call, "preset_call": pair.strategy_call,
                     "calls_apart": pair.calls_apart, "met": met})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    paths = sorted(p for p in args.folder.rglob("*.jsonl") if p.is_file() and has_person_compaction(p))
    rows = [row for path in paths for row in check(path)]
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(f"{'file':<48} {'part':<8} {'#':>2} {'kind':<11} {'log':>5} {'preset':>6} {'apart':>5} {'met':>4}")
    for row in rows:
        if "error" in row:
            print(f"{row['file'][-48:]:<48} ERROR {row['error'][:80]}")
            continue
        met = "-" if row["met"] is None else "yes" if row["met"] else "NO"
        print(f"{row['file'][-48:]:<48} {row['part']:<8} {row['compaction']:>2} {row['kind']:<11} "
              f"{row['log_call']!s:>5} {row['preset_call']!s:>6} {row['calls_apart']!s:>5} {met:>4}")
    print_summary([r for r in rows if "error" not in r], len(paths))
    return 0


def print_summary(good: list[dict], logs: int) -> None:
    print(f"\n{logs} logs with a /compact of the person's")
    print(f"{'part':<9} {'logs':>5} {'person':>7} {'within 1':>9} {'auto after':>11} {'within 3':>9} "
          f"{'after the last call':>19}")
    for part in PARTS:
        mine = [r for r in good if r["part"] == part]
        person = [r for r in mine if r["kind"] == "person" and r["log_call"] is not None]
        auto = [r for r in mine if r["kind"] == "auto after" and r["log_call"] is not None]
        last = [r for r in mine if r["kind"] != "auto before" and r["log_call"] is None]
        print(f"{part:<9} {len({r['path'] for r in mine}):>5} {len(person):>7} "
              f"{sum(1 for r in person if r['met']):>9} {len(auto):>11} {sum(1 for r in auto if r['met']):>9} "
              f"{len(last):>19}")


if __name__ == "__main__":
    raise SystemExit(main())
