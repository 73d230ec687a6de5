"""Counts read straight from the raw files of the agents benchmarks/new_agents_real_logs.py checks: a plain
reading that shares no code with the readers, so the two can disagree. Per session: model calls, the
cost the file records, and the compactions it records."""

import json
import shutil
import sqlite3
import tempfile
from pathlib import Path


def crush(path: Path) -> dict:
    """A copy of the file alone opened by sqlite3: assistant rows that are not the summary, the session's
    cost column, and the summary rows (is_summary_message, else the session's summary_message_id)."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "copy.db"
        shutil.copy(path, copy)
        connection = sqlite3.connect(copy)
        columns = {row[1] for row in connection.execute("PRAGMA table_info(messages)")}
        flag = "is_summary_message" if "is_summary_message" in columns else "0"
        summary_column = {row[1] for row in connection.execute("PRAGMA table_info(sessions)")}
        summary_id = "summary_message_id" if "summary_message_id" in summary_column else "NULL"
        counts = {}
        for session, cost, summary in connection.execute(f"SELECT id, cost, {summary_id} FROM sessions"):
            rows = connection.execute(f"SELECT id, role, {flag} FROM messages WHERE session_id = ?", (session,)).fetchall()
            if not rows:
                continue
            summaries = {message for message, _, marked in rows if marked or message == summary}
            counts[session] = {"calls": sum(1 for message, role, _ in rows if role == "assistant"
                                            and message not in summaries),
                               "cost": cost, "compactions": len(summaries)}
        connection.close()
    return counts


def goose(path: Path) -> dict:
    """A Goose session JSONL: assistant lines the person sees (Goose's own notice after a summary is hidden
    from the person), the first line's accumulated cost (none in that form), and the summaries (user lines
    hidden from the person, seen by the model)."""
    calls = compactions = 0
    for raw in path.read_text(encoding="utf-8").splitlines():
        try:
            line = json.loads(raw)
        except ValueError:
            continue
        shown = (line.get("metadata") or {}) if isinstance(line, dict) else {}
        if not isinstance(line, dict) or "role" not in line:
            continue
        hidden = shown.get("userVisible") is False
        calls += line["role"] == "assistant" and not hidden
        compactions += line["role"] == "user" and hidden and shown.get("agentVisible") is not False
    return {"file": {"calls": calls, "cost": None, "compactions": compactions}}


def cursor(path: Path) -> dict:
    """A Cursor transcript: its assistant lines; it records no cost and no compaction."""
    calls = 0
    for raw in path.read_text(encoding="utf-8").splitlines():
        try:
            line = json.loads(raw)
        except ValueError:
            continue
        calls += isinstance(line, dict) and line.get("role") == "assistant"
    return {"file": {"calls": calls, "cost": None, "compactions": 0}}


COUNTERS = {"crush": crush, "goose": goose, "cursor": cursor}
