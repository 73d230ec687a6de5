"""Claude Code session JSONL (`~/.claude/projects/<dir>/<session>.jsonl`); there is no official schema.

What the file does and how it is read:
- lines form a tree by `parentUuid`; a rewind starts a new branch. The active branch is the one ending
  in the most recent leaf; other branches are left out (and counted).
- `isSidechain` lines belong to subagents: left out of the main conversation and counted.
- one API response is written as several assistant lines sharing `message.id`: merged back into one
  message; the tool results answering it (one user line each) are merged into one user message.
- `{"type": "system", "subtype": "compact_boundary"}` marks where Claude Code compacted; it and the
  `isCompactSummary` user line that follows are kept as metadata with their message positions.
- unknown line types are skipped with a count.
"""

from dataclasses import dataclass, field
from typing import Any

from ..conversation import Conversation, LoadWarning
from ..errors import ConversationError
from .checks import build_conversation, check_message, only_tool_results
from .source import jsonl_objects, kind_of

FORMAT = "claude-code"

# Line types Claude Code writes that carry no message; anything else unknown is counted as unknown.
KNOWN_OTHER_TYPES = frozenset({"system", "summary", "file-history-snapshot", "queue-operation", "progress"})


@dataclass
class _Node:
    """One line that takes part in the parentUuid tree."""

    line: int
    node_id: str
    parent_id: str | None
    kind: str  # "message" | "boundary" | "other"
    timestamp: str = ""
    message: dict | None = None
    message_id: str | None = None
    compact_summary: bool = False
    boundary: dict = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


@dataclass
class _Counts:
    sidechain: int = 0
    unknown: int = 0
    unknown_types: set[str] = field(default_factory=set)
    session_id: str | None = None


def load(text: str, label: str) -> Conversation:
    nodes, counts = _read_nodes(text, label)
    if not any(node.kind == "message" for node in nodes):
        raise ConversationError("no user or assistant lines: not a Claude Code session with messages",
                                where=label)
    branch, tree_warnings = _active_branch(nodes)
    on_branch = {id(node) for node in branch}
    off_branch = sum(1 for node in nodes if node.kind == "message" and id(node) not in on_branch)
    messages, boundaries, summaries, warnings = _assemble(branch)
    warnings = tree_warnings + warnings + _count_warnings(counts, off_branch)
    metadata = {
        "session_id": counts.session_id,
        "compact_boundaries": boundaries,
        "compact_summary_indices": summaries,
        "sidechain_lines_skipped": counts.sidechain,
        "unknown_lines_skipped": counts.unknown,
        "branch_lines_skipped": off_branch,
    }
    fresh_starts = frozenset(boundary["index"] for boundary in boundaries)
    return build_conversation(messages, label, FORMAT, warnings, metadata=metadata, fresh_starts=fresh_starts)


def _read_nodes(text: str, label: str) -> tuple[list[_Node], _Counts]:
    nodes: list[_Node] = []
    counts = _Counts()
    previous_id: str | None = None
    for number, line in jsonl_objects(text, label):
        if line.get("isSidechain") is True:
            counts.sidechain += 1
            continue
        if counts.session_id is None and isinstance(line.get("sessionId"), str):
            counts.session_id = line["sessionId"]
        line_type = line.get("type") if isinstance(line.get("type"), str) else "(no type)"
        node = _node(line, number, label)
        if line_type not in ("user", "assistant") and line_type not in KNOWN_OTHER_TYPES:
            counts.unknown += 1
            counts.unknown_types.add(line_type)
        if node is None:
            continue
        if "parentUuid" not in line:
            node.parent_id = previous_id  # a file without the tree: lines follow each other
        elif node.parent_id is None and node.kind == "boundary":
            node.parent_id = previous_id  # a boundary without logicalParentUuid still continues the file
        nodes.append(node)
        previous_id = node.node_id
    return nodes, counts


def _node(line: dict, number: int, label: str) -> _Node | None:
    """The tree node of a line, or None for lines outside the tree (no uuid and no message)."""
    line_type = line.get("type")
    uuid = line.get("uuid") if isinstance(line.get("uuid"), str) else None
    parent = line.get("parentUuid") or line.get("logicalParentUuid")
    parent = parent if isinstance(parent, str) else None
    timestamp = line.get("timestamp") if isinstance(line.get("timestamp"), str) else ""
    node_id = uuid or f"line:{number}"
    if line_type in ("user", "assistant"):
        where = f"{label}: line {number}"
        message = line.get("message")
        if not isinstance(message, dict):
            raise ConversationError(f"the {line_type} line needs a 'message' object, got {kind_of(message)}",
                                    where=where)
        message = {"role": message.get("role", line_type), "content": message.get("content")}
        if message["role"] != line_type:
            raise ConversationError(f"the {line_type} line holds a message with role {message['role']!r}",
                                    where=where)
        warnings = check_message(message, where)
        message_id = line["message"].get("id")
        return _Node(number, node_id, parent, "message", timestamp, message,
                     message_id if isinstance(message_id, str) else None,
                     line.get("isCompactSummary") is True, warnings=warnings)
    if line_type == "system" and line.get("subtype") == "compact_boundary":
        info = line.get("compactMetadata") if isinstance(line.get("compactMetadata"), dict) else {}
        boundary = {"trigger": info.get("trigger"), "pre_tokens": info.get("preTokens")}
        return _Node(number, node_id, parent, "boundary", timestamp, boundary=boundary)
    if uuid is None:
        return None
    # Other lines with a uuid stay in the tree so that children pointing at them stay connected.
    return _Node(number, node_id, parent, "other", timestamp)


def _active_branch(nodes: list[_Node]) -> tuple[list[_Node], list[LoadWarning]]:
    """The root-to-leaf path ending in the most recent leaf (latest timestamp, then latest line)."""
    by_id = {node.node_id: node for node in nodes}
    parents = {node.parent_id for node in nodes}
    leaves = [node for node in nodes if node.node_id not in parents]
    current = max(leaves or nodes, key=lambda node: (node.timestamp, node.line))
    path, seen, warnings = [], set(), []
    while True:
        path.append(current)
        seen.add(current.node_id)
        parent_id = current.parent_id
        if parent_id is None:
            break
        if parent_id in seen:
            warnings.append(LoadWarning("parentUuid loop; the branch is cut here", line=current.line))
            break
        if parent_id not in by_id:
            warnings.append(LoadWarning(
                f"parentUuid {parent_id!r} is not in the file; earlier messages may be missing",
                line=current.line))
            break
        current = by_id[parent_id]
    path.reverse()
    return path, warnings


def _assemble(branch: list[_Node]) -> tuple[list[dict], list[dict], list[int], list[LoadWarning]]:
    messages: list[dict] = []
    boundaries: list[dict] = []
    summaries: list[int] = []
    warnings: list[LoadWarning] = []
    open_response: tuple[str, int] | None = None  # (message.id, index) of the response being written
    for node in branch:
        if node.kind == "boundary":
            boundaries.append({"index": len(messages), **node.boundary})
            open_response = None
            continue
        if node.kind != "message":
            continue
        message = node.message
        index = _place(messages, message, node.message_id, open_response)
        if message["role"] == "assistant":
            open_response = (node.message_id, index) if node.message_id else None
        elif not only_tool_results(message["content"]):
            open_response = None  # the person spoke: the response is over
        if node.compact_summary:
            summaries.append(index)
        warnings.extend(LoadWarning(text, index=index, line=node.line) for text in node.warnings)
    return messages, boundaries, summaries, warnings


def _place(messages: list[dict], message: dict, message_id: str | None,
           open_response: tuple[str, int] | None) -> int:
    """Append `message`, or merge it into the response or tool-result message it continues; its index."""
    content = message["content"]
    if message["role"] == "assistant" and open_response and message_id == open_response[0]:
        target = messages[open_response[1]]
        target["content"] = _as_blocks(target["content"]) + _as_blocks(content)
        return open_response[1]
    if (message["role"] == "user" and only_tool_results(content) and messages
            and messages[-1]["role"] == "user" and only_tool_results(messages[-1]["content"])):
        messages[-1]["content"] = messages[-1]["content"] + content
        return len(messages) - 1
    messages.append({"role": message["role"], "content": content})
    return len(messages) - 1


def _as_blocks(content: Any) -> list:
    return [{"type": "text", "text": content}] if isinstance(content, str) else list(content)


def _count_warnings(counts: _Counts, off_branch: int) -> list[LoadWarning]:
    warnings = []
    if counts.sidechain:
        warnings.append(LoadWarning(f"{counts.sidechain} sidechain (subagent) line(s) left out"))
    if counts.unknown:
        types = ", ".join(sorted(counts.unknown_types))
        warnings.append(LoadWarning(f"{counts.unknown} line(s) of unknown type skipped ({types})"))
    if off_branch:
        warnings.append(LoadWarning(f"{off_branch} message line(s) on abandoned branches (rewinds) left out"))
    return warnings
