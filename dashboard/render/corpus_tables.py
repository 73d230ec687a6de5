"""The Sessions page's table: corpus rows (compaction.corpus.COLUMNS) filtered, searched and labelled for
people, plus the corpus sweep's trade-off front. No Streamlit here, so it is tested directly."""

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from compaction.corpus import percentile

# Row field -> column title, in the order shown.
TITLES = {
    "project": "project", "session": "session", "format": "format", "error": "error", "first_time": "first time",
    "last_time": "last time", "messages": "messages", "model_calls": "model calls", "chars": "size (characters)",
    "bytes": "size on disk (bytes)", "recorded_tokens": "recorded tokens", "recorded_peak_tokens": "recorded peak",
    "log_compactions": "log's own compactions", "tokens_sent": "tokens sent", "raw_tokens_sent": "without compaction",
    "saved_share": "saved", "peak_tokens": "peak context", "summaries": "summaries",
    "tool_output_kept": "tool output seen whole", "cost_usd": "cost (US$)", "cost_usd_no_cache": "cost without caching",
    "cache_hit_rate": "read from the cache", "blind_references": "blind references",
    "artifact_retention": "artifacts kept", "input_pair_problems": "pair problems (input)",
    "calls_with_pair_problems": "calls with pair problems", "load_warnings": "load warnings", "path": "path",
}
UNREADABLE = "unreadable"


@dataclass(frozen=True)
class RowFilter:
    text: str = ""  # searched in project, path and session id, case-insensitive
    formats: tuple[str, ...] = ()  # formats to show (UNREADABLE for rows with an error); empty: all
    errors_only: bool = False
    pair_problems_only: bool = False
    compactions_only: bool = False

    def keeps(self, row: dict) -> bool:
        needle = self.text.strip().lower()
        if needle and not any(needle in str(row.get(name) or "").lower() for name in ("project", "path", "session")):
            return False
        if self.formats and (row.get("format") or UNREADABLE) not in self.formats:
            return False
        if self.errors_only and not row.get("error"):
            return False
        if self.pair_problems_only and not pair_problems(row):
            return False
        return not (self.compactions_only and not row.get("log_compactions"))


def pair_problems(row: dict) -> int:
    return (row.get("input_pair_problems") or 0) + (row.get("calls_with_pair_problems") or 0)


def formats_of(rows: Iterable[dict]) -> list[str]:
    return sorted({row.get("format") or UNREADABLE for row in rows})


def sessions_frame(rows: Iterable[dict]) -> pd.DataFrame:
    """One line per row, the columns titled for people; missing measures stay empty (NaN), an unreadable
    file's format reads "unreadable" and a readable one's error is blank."""
    frame = pd.DataFrame([{title: row.get(name) for name, title in TITLES.items()} for row in rows],
                         columns=list(TITLES.values()))
    frame[TITLES["format"]] = frame[TITLES["format"]].fillna(UNREADABLE)
    frame[TITLES["error"]] = frame[TITLES["error"]].fillna("")
    for name in ("first_time", "last_time"):
        frame[TITLES[name]] = pd.to_datetime(frame[TITLES[name]], errors="coerce", utc=True, format="ISO8601")
    return frame


def corpus_summary(rows: list[dict]) -> dict[str, float | int | None]:
    """Headline figures: sessions, unreadable, messages, model calls and the median saving."""
    readable = [row for row in rows if not row.get("error")]
    saved = sorted(row["saved_share"] for row in readable if row.get("saved_share") is not None)
    return {"sessions": len(rows), "unreadable": len(rows) - len(readable),
            "messages": sum(row.get("messages") or 0 for row in readable),
            "model_calls": sum(row.get("model_calls") or 0 for row in readable),
            "median_saved": percentile(saved, 0.5)}


def suggested_projects_folder(home: Path, client_ip) -> Path | None:
    """`home`/.claude/projects when it is a folder and the browser is on this machine: Streamlit gives no
    IP address for a connection through localhost, or a loopback one. A suggestion, not a security check."""
    folder = home / ".claude" / "projects"
    if client_ip is not None:
        try:
            if not ipaddress.ip_address(client_ip).is_loopback:
                return None
        except (TypeError, ValueError):  # not an address at all
            return None
    return folder if folder.is_dir() else None
