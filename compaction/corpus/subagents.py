"""Subagents beside their session: which corpus files are a subagent's own log, which session ran each,
and the rows put in that order (every session followed by its subagents).

Where an agent keeps a subagent's log, and what in the log says it is one, is that agent's: its package
registers a rule (SubagentRule). A subagent's row names the session that ran it (`subagent_of`); once every row is in, `attach` finds that
session's row (`parent_path`) and adds to it its subagents' count and recorded cost. A subagent whose
session is not in the corpus keeps its place, with `parent_path` empty.
"""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from compaction.model.conversation import Conversation

SESSION, SUBAGENT = "session", "subagent"
# Added to every row: what the worker reads from the file, then what `attach` fills in
FAMILY_COLUMNS = ("kind", "subagent_of", "parent_path", "subagents", "recorded_cost_with_subagents_usd")


@dataclass(frozen=True)
class Parent:
    """A file found to be a subagent's log, and the id of the session that ran it (None: not known)."""

    session: str | None


@dataclass(frozen=True)
class SubagentRule:
    """One agent's way of keeping its subagents' logs."""

    format: str  # the agent's format
    # the parent that the path alone shows, or None when the path does not say
    from_path: Callable[[str], Parent | None]
    # the parent that a loaded log of this format shows (its path's `Parent` given too), or None
    from_log: Callable[[Conversation, str, Parent | None], Parent | None]


_RULES: list[SubagentRule] = []


def register(rule: SubagentRule) -> SubagentRule:
    _RULES.append(rule)
    return rule


def from_path(relative: str) -> tuple[str | None, str | None]:
    """(kind, parent session id) that the path alone shows. (None, None) when the path does not say, so
    that a file of a subagents' folder that cannot be read is still placed."""
    parent = _path_parent(relative)
    return (SUBAGENT, parent.session) if parent is not None else (None, None)


def _path_parent(relative: str) -> Parent | None:
    return next((found for rule in _RULES if (found := rule.from_path(relative)) is not None), None)


def from_log(conversation: Conversation, relative: str) -> tuple[str, str | None]:
    """(kind, parent session id) of a loaded file: what its log says, else what its path says."""
    by_path = _path_parent(relative)
    for rule in _RULES:
        if rule.format == conversation.format:
            parent = rule.from_log(conversation, relative, by_path)
            if parent is not None:
                return SUBAGENT, parent.session
    return SESSION, None


def attach(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows with every subagent right after its session's row (both in their own order otherwise),
    `parent_path` set on each subagent found a session, and on each session its subagents' count and
    its recorded cost with theirs. The rows are changed in place; the list is new."""
    sessions: dict[str, list[dict]] = {}
    for row in rows:
        if row.get("kind") == SESSION and row.get("session"):
            sessions.setdefault(row["session"], []).append(row)
            row["subagents"] = 0
            row["recorded_cost_with_subagents_usd"] = row.get("recorded_cost_usd")
    children: dict[int, list[dict]] = {}
    for row in rows:
        if row.get("kind") != SUBAGENT or not row.get("subagent_of"):
            continue
        parent = _nearest(row, sessions.get(row["subagent_of"], ()))
        if parent is None:
            continue
        row["parent_path"] = parent["path"]
        children.setdefault(id(parent), []).append(row)
        parent["subagents"] += 1
        if row.get("recorded_cost_usd") is not None:
            parent["recorded_cost_with_subagents_usd"] = (parent["recorded_cost_with_subagents_usd"] or 0.0) \
                + row["recorded_cost_usd"]
    ordered = []
    for row in rows:
        if row.get("parent_path") is not None:
            continue  # placed under its session
        ordered.append(row)
        ordered.extend(children.get(id(row), ()))
    return ordered


def _nearest(row: dict, candidates) -> dict | None:
    """The session of that id nearest the subagent: in its project, then sharing the longest folder path
    (a backup may hold the same session twice)."""
    folder = PurePosixPath(row["path"]).parts

    def closeness(candidate: dict) -> tuple[bool, int]:
        shared = 0
        for mine, theirs in zip(folder, PurePosixPath(candidate["path"]).parts[:-1], strict=False):
            if mine != theirs:
                break
            shared += 1
        return candidate.get("project") == row.get("project"), shared

    return max(candidates, key=closeness, default=None)
