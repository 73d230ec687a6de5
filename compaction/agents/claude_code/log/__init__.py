"""Claude Code session JSONL (`~/.claude/projects/<dir>/<session>.jsonl`); there is no official schema.

How a file is read, one idea per module:
- records.py: each line as a record of the parentUuid tree (message, compaction boundary, or other);
- branch.py: which lines are the session (the spine from the last line to the root, plus the lines of
  its responses and the results of its calls that the tree puts beside it), what was rewound, dropped
  on resume or restarted;
- pairing.py: the tool pairs of the kept lines repaired as Claude Code repairs them before it sends;
- assemble.py: the kept lines as API messages, with each response's recorded usage.
Sidechain lines (subagents) and lines of unknown type are left out and counted.
"""

from typing import Any

from compaction.agents.claude_code.log.assemble import assemble
from compaction.agents.claude_code.log.branch import choose_branch
from compaction.agents.claude_code.log.pairing import repair_pairs
from compaction.agents.claude_code.log.records import KNOWN_OTHER_TYPES, Record, read_record
from compaction.errors import ConversationError
from compaction.importers.checks import build_conversation
from compaction.importers.jsonl import JsonLines
from compaction.model.conversation import Conversation, LoadWarning

FORMAT = "claude-code"


def looks_like(value: Any) -> bool:
    """A one-line log parsed as a JSON document: a typed line of the session tree."""
    return isinstance(value, dict) and "messages" not in value and isinstance(value.get("type"), str) \
        and any(key in value for key in ("uuid", "sessionId", "leafUuid"))


def load(lines: JsonLines) -> Conversation:
    label = lines.label
    records, skipped, session_id, version = _read_records(lines)
    subagent = []
    if skipped.sidechain and not any(record.is_message for record in records):
        # every message line is a sidechain: the file is a subagent's own session (subagents/agent-*.jsonl)
        records, _, session_id, version = _read_records(lines, sidechains=True)
        subagent = [LoadWarning("every message line is a sidechain: this is a subagent's own session, shown "
                                "as the subagent saw it", kind="subagent")]
        skipped = _Skipped()
    if not any(record.is_message for record in records):
        raise ConversationError("no user or assistant lines: not a Claude Code session with messages"
                                + lines.first_problem(), where=label)
    bridged = _bridge_missing_parents(records)
    branch = choose_branch(records)
    kept, repaired = repair_pairs(branch.records, {record.uuid for record in records})
    out = assemble(kept)
    warnings = [w for w in (lines.skipped_warning(),) if w] + subagent + bridged + branch.warnings \
        + repaired + out.warnings + skipped.warnings()
    metadata = {
        "session_id": session_id,
        "compact_boundaries": out.boundaries,
        "compact_summary_indices": out.summary_indices,
        "sidechain_lines_skipped": skipped.sidechain,
        "unknown_lines_skipped": skipped.unknown,
        "branch_lines_skipped": branch.rewound + branch.dropped_calls,
        "restart_lines_skipped": branch.restarted,
    }
    if subagent:
        # its lines' sessionId is the session that ran it; agentId names the subagent (agent-<id>.jsonl)
        metadata["agent_id"] = _agent_id(lines)
    if version:
        metadata["agent_version"] = version  # the Claude Code version of the last line: its compaction rules
    fresh_starts = frozenset(boundary["index"] for boundary in out.boundaries)
    return build_conversation(out.messages, label, FORMAT, warnings, metadata=metadata, fresh_starts=fresh_starts,
                              usage=out.usage if any(out.usage) else [],
                              timestamps=out.timestamps if any(out.timestamps) else [])


class _Skipped:
    def __init__(self):
        self.sidechain = 0
        self.unknown = 0
        self.unknown_types: set[str] = set()

    def warnings(self) -> list[LoadWarning]:
        found = []
        if self.sidechain:
            found.append(LoadWarning(f"{self.sidechain:,} sidechain (subagent) line(s) left out", kind="sidechain"))
        if self.unknown:
            types = ", ".join(sorted(self.unknown_types))
            found.append(LoadWarning(f"{self.unknown:,} line(s) of unknown type skipped ({types})", kind="unknown_type"))
        return found


def _agent_id(lines: JsonLines) -> str | None:
    return next((line["agentId"] for _, line in lines.objects if isinstance(line.get("agentId"), str)
                 and line["agentId"]), None)


def _bridge_missing_parents(records: list[Record]) -> list[LoadWarning]:
    """A line whose parent is not in the file (a trimmed copy; a compaction whose logical parent was
    never written) continues the line written before it, so the session goes on across the gap."""
    known = {record.uuid for record in records}
    gaps = []
    for previous, record in zip(records, records[1:], strict=False):
        if record.parent is not None and record.parent not in known:
            gaps.append(record.line)
            record.parent = previous.uuid
    if not gaps:
        return []
    where = ", ".join(f"{line:,}" for line in gaps[:5]) + (", ..." if len(gaps) > 5 else "")
    return [LoadWarning(f"{len(gaps):,} line(s) name a parent line that is not in the file (lines {where}); "
                        "each continues the line written before it", line=gaps[0], kind="parent_missing")]


def _read_records(lines: JsonLines, sidechains: bool = False
                  ) -> tuple[list[Record], _Skipped, str | None, str | None]:
    records: list[Record] = []
    skipped = _Skipped()
    session_id = version = None
    previous: str | None = None
    for number, line in lines.objects:
        if line.get("isSidechain") is True and not sidechains:
            skipped.sidechain += 1
            continue
        if session_id is None and isinstance(line.get("sessionId"), str):
            session_id = line["sessionId"]
        if isinstance(line.get("version"), str) and line["version"]:
            version = line["version"]  # the last one: a resumed session may span versions
        line_type = given if isinstance(given := line.get("type"), str) else "no type"  # named in parentheses
        if line_type not in ("user", "assistant") and line_type not in KNOWN_OTHER_TYPES:
            skipped.unknown += 1
            skipped.unknown_types.add(line_type)
        record = read_record(line, number, lines.label)
        if record is None:
            continue
        if "parentUuid" not in line:
            record.parent = previous  # a file without the tree: lines follow each other
        elif record.parent is None and record.kind == "boundary":
            record.parent = previous  # a boundary without logicalParentUuid still continues the file
        records.append(record)
        previous = record.uuid
    return records, skipped, session_id, version
