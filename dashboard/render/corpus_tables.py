"""The Sessions page's table: corpus rows (compaction.corpus.COLUMNS) filtered, searched and labelled for
people, plus the corpus sweep's trade-off front. No Streamlit here, so it is tested directly."""

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from compaction.corpus import SUBAGENT, agent_homes, percentile
from compaction.importers import title_of

# Row field -> column title, in the order shown. A subagent's session reads "↳ agent-…" and its parent's
# session id is in "subagent of", so that sorted or filtered the row still says whose it is.
TITLES = {
    "project": "project", "session": "session", "subagent_of": "subagent of", "format_title": "format",
    "error": "error", "first_time": "first time", "last_time": "last time", "messages": "messages",
    "model_calls": "model calls", "recorded_cost_usd": "recorded cost (US$)",
    "cost_usd": "cost with these settings (US$)", "cost_usd_no_cache": "cost without caching",
    "price_notes": "price notes", "recorded_from_totals": "recorded from",
    "subagents": "subagents", "recorded_cost_with_subagents_usd": "recorded, with its subagents (US$)",
    "chars": "size (characters)", "bytes": "size on disk (bytes)", "recorded_tokens": "recorded tokens",
    "recorded_peak_tokens": "recorded peak", "log_compactions": "log's own compactions", "tokens_sent": "tokens sent",
    "raw_tokens_sent": "without compaction", "saved_share": "saved", "peak_tokens": "peak context",
    "summaries": "summaries", "tool_output_kept": "tool output seen whole", "cache_hit_rate": "read from the cache",
    "blind_references": "blind references", "artifact_retention": "artifacts kept",
    "input_pair_problems": "pair problems (input)", "calls_with_pair_problems": "calls with pair problems",
    "load_warnings": "load warnings", "paid_calls": "calls paid",
    "paid_cost_usd": "paid, with left branches (US$)", "left_branches": "branches left (rewound, restarted)",
    "path": "path",
}
# How each column writes its values (grid_widths.KINDS); every other column is text
COLUMN_KINDS = {title: "count" for title in (
    "messages", "model calls", "calls paid", "subagents", "size (characters)", "size on disk (bytes)", "recorded tokens",
    "recorded peak", "log's own compactions", "tokens sent", "without compaction", "peak context", "summaries",
    "blind references", "pair problems (input)", "calls with pair problems", "load warnings")} | {
    title: "share" for title in ("saved", "tool output seen whole", "read from the cache", "artifacts kept")} | {
    title: "usd" for title in ("recorded cost (US$)", "paid, with left branches (US$)", "cost with these settings (US$)", "cost without caching",
                               "recorded, with its subagents (US$)")} | {"first time": "time", "last time": "time"}
# The columns shown until the person picks others: who, what it cost, what compaction does. All of them side
# by side were some 3,300 to 6,500 pixels wide; the rest are one tick away (the Columns popover).
SHOWN_FIRST = ("session", "project", "format", "model calls", "recorded cost (US$)", "cost with these settings (US$)",
               "saved", "log's own compactions", "summaries")
SHOWN_WHEN_FILLED = ("subagent of", "recorded from", "branches left (rewound, restarted)", "error")  # shown too when a row has something to say


def default_columns(frame: pd.DataFrame) -> list[str]:
    """The columns the table shows first: SHOWN_FIRST, and those of SHOWN_WHEN_FILLED some row fills."""
    filled = [title for title in SHOWN_WHEN_FILLED
              if title in frame and frame[title].fillna("").astype(str).str.len().gt(0).any()]
    return [title for title in frame.columns if title in SHOWN_FIRST or title in filled]


UNREADABLE = "unreadable"
FROM_TOTALS = "the run's totals (per call: estimated)"
SUBAGENT_MARK = "↳ "
PARENT_MISSING = " (not in this folder)"


@dataclass(frozen=True)
class RowFilter:
    text: str = ""  # searched in project, path, session id and parent session id, case-insensitive
    formats: tuple[str, ...] = ()  # format titles to show (UNREADABLE for rows with an error); empty: all
    errors_only: bool = False
    pair_problems_only: bool = False
    compactions_only: bool = False
    hide_subagents: bool = False

    def keeps(self, row: dict) -> bool:
        needle = self.text.strip().lower()
        if needle and not any(needle in str(row.get(name) or "").lower()
                              for name in ("project", "path", "session", "subagent_of")):
            return False
        if self.formats and format_title(row) not in self.formats:
            return False
        if self.errors_only and not row.get("error"):
            return False
        if self.pair_problems_only and not pair_problems(row):
            return False
        if self.hide_subagents and is_subagent(row):
            return False
        return not (self.compactions_only and not row.get("log_compactions"))


def is_subagent(row: dict) -> bool:
    return row.get("kind") == SUBAGENT


def pair_problems(row: dict) -> int:
    return (row.get("input_pair_problems") or 0) + (row.get("calls_with_pair_problems") or 0)


def format_title(row: dict) -> str:
    """The registry's title of the row's format; UNREADABLE for a file that could not be read."""
    return row.get("format_title") or (title_of(row["format"]) if row.get("format") else UNREADABLE)


def formats_of(rows: Iterable[dict]) -> list[str]:
    return sorted({format_title(row) for row in rows})


def _shown(row: dict) -> dict:
    """The row as the table writes it: the format's title, a subagent marked under its session."""
    shown = {**row, "format_title": format_title(row), "price_notes": "; ".join(row.get("price_notes") or ()),
             "recorded_from_totals": recorded_from(row)}
    if is_subagent(row):
        shown["session"] = SUBAGENT_MARK + str(row.get("session") or "")
        if row.get("subagent_of") and not row.get("parent_path"):
            shown["subagent_of"] = row["subagent_of"] + PARENT_MISSING
    return shown


def recorded_from(row: dict) -> str:
    """Where a row's recorded cost comes from, in the table's words ("" when it has none)."""
    if row.get("recorded_cost_usd") is None:
        return ""
    return FROM_TOTALS if row.get("recorded_from_totals") else "each call's usage"


def sessions_frame(rows: Iterable[dict]) -> pd.DataFrame:
    """One line per row, the columns titled for people; missing measures stay empty (NaN), an unreadable
    file's format reads "unreadable" and a readable one's error is blank."""
    frame = pd.DataFrame([{title: shown.get(name) for name, title in TITLES.items()}
                          for shown in map(_shown, rows)], columns=list(TITLES.values()))
    for name in ("error", "subagent_of"):
        frame[TITLES[name]] = frame[TITLES[name]].fillna("")
    for name in ("first_time", "last_time"):
        frame[TITLES[name]] = pd.to_datetime(frame[TITLES[name]], errors="coerce", utc=True, format="ISO8601")
    return frame


def corpus_summary(rows: list[dict]) -> dict[str, float | int | None]:
    """Headline figures: sessions (subagents apart), unreadable files, messages, model calls, what the
    logs' own calls cost (None when none recorded its usage) and the median saving."""
    readable = [row for row in rows if not row.get("error")]
    saved = sorted(row["saved_share"] for row in readable if row.get("saved_share") is not None)
    recorded = [row["recorded_cost_usd"] for row in readable if row.get("recorded_cost_usd") is not None]
    return {"sessions": sum(1 for row in rows if not is_subagent(row)),
            "subagents": sum(1 for row in rows if is_subagent(row)),
            "unreadable": len(rows) - len(readable),
            "messages": sum(row.get("messages") or 0 for row in readable),
            "model_calls": sum(row.get("model_calls") or 0 for row in readable),
            "recorded_cost_usd": sum(recorded) if recorded else None,
            "median_saved": percentile(saved, 0.5)}


def suggested_agent_folders(home: Path) -> list[tuple[str, Path]]:
    """(agent, folder) for every agent's log folder under `home` (corpus/homes.py) that is a folder
    (whether this browser may use it is corpus_state.agent_folders' question)."""
    return [(place.agent, folder) for place in agent_homes() if (folder := place.folder(home)).is_dir()]
