"""Real public logs of the agents read from a database or from transcripts (kept outside the project, under
DIR/<agent>/...): each loads as its agent, its calls, recorded cost and own compactions equal a plain count
of the raw file (raw_counts_stored.py, which shares no code with the readers), and the agent's own preset,
where it has one, runs on it.

    .venv/bin/python benchmarks/new_agents_real_logs.py DIR [--merge-wal] [--json]

--merge-wal: a SQLite database is read with the -wal file beside it moved into it first (on a copy), as
the agent itself would on closing; without it, the file alone, as an upload gets it.
"""

import argparse
import json
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from raw_counts_stored import COUNTERS  # noqa: E402 (the benchmarks folder is not a package)

from compaction import load_conversation, replay  # noqa: E402
from compaction.agents import agent_of  # noqa: E402
from compaction.errors import ConversationError  # noqa: E402
from compaction.importers import load_run  # noqa: E402
from compaction.importers.runs import runs_in  # noqa: E402
from compaction.importers.totals import RECORDED_TOTALS  # noqa: E402


def merged(path: Path, scratch: Path) -> Path:
    """A copy of the database with its -wal moved in (the original is never opened for writing)."""
    folder = Path(tempfile.mkdtemp(dir=scratch))
    copy = folder / path.name
    shutil.copy(path, copy)
    wal = path.with_name(path.name + "-wal")
    if wal.exists():
        shutil.copy(wal, folder / wal.name)
    with sqlite3.connect(copy) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return copy


def loaded(path: Path) -> list:
    keys = runs_in(path)
    return [load_run(path, key) for key in keys] if keys else [load_conversation(path)]


def check(path: Path, agent: str) -> list[dict]:
    try:
        conversations = loaded(path)
    except ConversationError as error:
        return [{"file": str(path), "error": str(error)}]
    raw = COUNTERS[agent](path)
    rows = []
    for conversation in conversations:
        facts = conversation.metadata
        key = facts.get("session_id") or "file"
        plain = raw.get(key, {})
        calls = sum(1 for message in conversation.messages if message["role"] == "assistant") - \
            len(facts.get("compact_summary_indices") or ()) * 0
        cost = (facts.get(RECORDED_TOTALS) or {}).get("cost_usd")
        row = {"file": str(path), "session": key, "format": conversation.format, "calls": facts.get("calls", calls),
               "raw_calls": plain.get("calls"), "cost": cost, "raw_cost": plain.get("cost") or None,
               "compactions": len(facts.get("compact_boundaries") or ()), "raw_compactions": plain.get("compactions"),
               "warnings": sorted({w.kind for w in conversation.warnings})}
        own = agent_of(conversation.format)
        if own is not None and own.own_preset:
            result = replay(conversation, strategy=own.own_preset, keep_histories=False)
            row["preset_compactions"] = sum(1 for call in result.calls if call.acted)
            row["window"] = result.model_window_tokens
        row["agrees"] = (row["format"] == agent and row["calls"] == row["raw_calls"] and row["cost"] == row["raw_cost"]
                         and row["compactions"] == row["raw_compactions"])
        rows.append(row)
    return rows


FILES = {"crush": "crush.db", "goose": "*.jsonl", "cursor": "*.jsonl"}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--merge-wal", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for agent, pattern in FILES.items():
            for path in sorted((args.folder / agent).rglob(pattern)):
                if agent == "goose" and path.parent.name != "sessions" and "goose" not in str(path):
                    continue
                chosen = merged(path, Path(scratch)) if args.merge_wal and agent == "crush" else path
                rows += [{**row, "file": str(path.relative_to(args.folder))} for row in check(chosen, agent)]
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        for row in rows:
            print(json.dumps(row))
        good = sum(1 for row in rows if row.get("agrees"))
        print(f"{good} of {len(rows)} sessions agree with the plain count "
              f"({len({row['file'] for row in rows})} files)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
