"""Subagents beside their session: which corpus files are a subagent's own log, which session ran each,
and the rows put in that order (every session followed by its subagents).

Where agents keep a subagent's log:
- Claude Code 2.1.x: `<project>/<session id>/subagents/agent-<agent id>.jsonl`, beside `<session id>.jsonl`;
- Claude Code 2.0.x: `<project>/agent-<agent id>.jsonl`, a sibling of the session's own file; only its
  lines say which session ran it (their `sessionId` is the parent's);
- Gemini CLI: `chats/<session id>/<id>.json`, a chat recording whose `kind` is "subagent".
A subagent's row names the session that ran it (`subagent_of`); once every row is in, `attach` finds that
session's row (`parent_path`) and adds to it its subagents' count and recorded cost. A subagent whose
session is not in the corpus keeps its place, with `parent_path` empty.
"""

from pathlib import PurePosixPath
from typing import Any

from compaction.model.conversation import Conversation

SESSION, SUBAGENT = "session", "subagent"
# Added to every row: what the worker reads from the file, then what `attach` fills in
FAMILY_COLUMNS = ("kind", "subagent_of", "parent_path", "subagents", "recorded_cost_with_subagents_usd")


def from_path(relative: str) -> tuple[str | None, str | None]:
    """(kind, parent session id) that the path alone shows: Claude Code 2.1's subagents/ folder. (None,
    None) when the path does not say, so that a file of that folder that cannot be read is still placed."""
    parts = PurePosixPath(relative).parts
    if len(parts) >= 3 and parts[-2] == "subagents" and parts[-1].startswith("agent-"):
        return SUBAGENT, parts[-3]
    return None, None


def from_log(conversation: Conversation, relative: str) -> tuple[str, str | None]:
    """(kind, parent session id) of a loaded file: what its log says, else what its path says."""
    metadata = conversation.metadata or {}
    path_kind, path_parent = from_path(relative)
    session_id = metadata.get("session_id") if isinstance(metadata.get("session_id"), str) else None
    if conversation.format == "claude-code" and (metadata.get("agent_id") or path_kind):
        return SUBAGENT, session_id or path_parent  # its lines carry the parent's sessionId
    if conversation.format == "gemini" and metadata.get("kind") == SUBAGENT:
        folder = PurePosixPath(relative).parent.name  # chats/<parent session id>/<id>.json
        return SUBAGENT, folder or None
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
