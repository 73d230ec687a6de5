"""Claude Code session JSONL (`~/.claude/projects/<dir>/<session>.jsonl`); there is no official schema.

How a file is read, one idea per module:
- records.py: each line as a record of the parentUuid tree (message, compaction boundary, or other);
- branch.py: which lines are the session (the spine from the last line to the root, plus the lines of
  its responses and the results of its calls that the tree puts beside it), what was rewound, dropped
  on resume or restarted;
- pairing.py: the tool pairs of the kept lines repaired as Claude Code repairs them before it sends;
- assemble.py: the kept lines as API messages, with each response's recorded usage.
Sidechain lines (subagents) and lines of unknown type are left out and counted.

Compactions: from 2.0 a `compact_boundary` line comes before the summary. 1.0.x writes none: its summary
line (`isCompactSummary`) starts a new root right after the line it continues, so a boundary is put there
(trigger "auto" unless the person had typed /compact; no preTokens). A file that starts with a compaction
(nothing of the session before it) has nothing to replace: its summary is the first message, not a
compaction of this log.
"""

import re
from typing import Any

from compaction.agents.claude_code.log.assemble import assemble
from compaction.agents.claude_code.log.branch import choose_branch
from compaction.agents.claude_code.log.off_branch import off_branch_calls
from compaction.agents.claude_code.log.pairing import repair_pairs
from compaction.agents.claude_code.log.records import KNOWN_OTHER_TYPES, Record, read_record
from compaction.errors import ConversationError
from compaction.importers.checks import build_conversation
from compaction.importers.jsonl import JsonLines
from compaction.measures.branches_paid import OFF_BRANCH_CALLS
from compaction.measures.windows import NAMED_KEY, NAMED_SOURCE_KEY, ONE_MILLION, ONE_MILLION_SUFFIX
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
    started = _started_after_compaction(out)
    warnings = [w for w in (lines.skipped_warning(),) if w] + subagent + bridged + branch.warnings \
        + repaired + out.warnings + started + _notes_warning(out) + skipped.warnings()
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
    left = off_branch_calls(records, branch)
    if left:
        metadata[OFF_BRANCH_CALLS] = left  # paid for beside the conversation (rewound, restarted)
    if out.start_attachments:
        metadata["start_attachments"] = out.start_attachments  # what the first call carried besides its prompt
    if out.notes:
        metadata["agent_notes"] = out.notes  # the <synthetic> responses: no API call, so no model call here
    if version:
        metadata["agent_version"] = version  # the Claude Code version of the last line: its compaction rules
    metadata.update(chosen_window(out.messages))
    fresh_starts = frozenset(boundary["index"] for boundary in out.boundaries)
    return build_conversation(out.messages, label, FORMAT, warnings, metadata=metadata, fresh_starts=fresh_starts,
                              usage=out.usage if any(out.usage) else [],
                              timestamps=out.timestamps if any(out.timestamps) else [])


# `/model`'s output: "Set model to opus[1m] (claude-opus-4-6[1m])" (colour codes between): the 1M window chosen
_MODEL_SET = re.compile(r"Set model to\b[^\n(]*\(([^()\s]+)\)")


def chosen_window(messages: list) -> dict:
    """The 1M window when the last model the person set with /model carries Claude Code's `[1m]` suffix (the
    calls' own model ids never do); nothing otherwise (the window is the model's: measures/windows.py)."""
    chosen = None
    for message in messages:
        if message["role"] != "user":
            continue
        content = message["content"]
        for text in [content] if isinstance(content, str) else \
                [b.get("text") for b in content if isinstance(b, dict) and b.get("type") == "text"]:
            if isinstance(text, str) and "Set model to" in text:
                found = _MODEL_SET.findall(text)
                chosen = found[-1] if found else None
    if chosen and chosen.lower().endswith(ONE_MILLION_SUFFIX):
        return {NAMED_KEY: ONE_MILLION, NAMED_SOURCE_KEY: f"the log's /model line set {chosen}: Claude Code's 1M window"}
    return {}


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


def _started_after_compaction(out) -> list[LoadWarning]:
    """A boundary before any message, or a summary with none before it: the file starts after a compaction
    (its earlier part is elsewhere). Nothing of this log was replaced, so its summary is the conversation's
    first message (the calls after it sent it), not a compaction of its own."""
    started = bool(out.boundaries) and out.boundaries[0]["index"] == 0
    if started:
        out.boundaries.pop(0)
    compacted = {boundary["index"] for boundary in out.boundaries}
    alone = [index for index in out.summary_indices if index not in compacted]
    out.summary_indices = [index for index in out.summary_indices if index in compacted]
    if not (started or alone):
        return []
    return [LoadWarning("the log starts after a compaction: its summary is the first message, as the calls after "
                        "it sent it", index=alone[0] if alone else 0, kind="starts_compacted")]


def _notes_warning(out) -> list[LoadWarning]:
    if not out.notes:
        return []
    return [LoadWarning(f"{len(out.notes):,} response(s) Claude Code wrote itself (model <synthetic>: \"No response "
                        "requested.\", an API error's text) made no API call: kept as notes, not model calls",
                        line=out.notes[0]["line"], kind="synthetic_response")]


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


def _texts(content) -> list:
    return [content] if isinstance(content, str) else [b.get("text", "") for b in content if isinstance(b, dict)] \
        if isinstance(content, list) else []


def _asks_compact(content) -> bool:
    return any(COMPACT_COMMAND in str(text) for text in _texts(content))


COMPACT_COMMAND = "<command-name>/compact</command-name>"
_COMMAND_ARGS = re.compile(r"<command-args>(.*?)</command-args>", re.DOTALL)
FOCUS_REACH_LINES = 20  # the /compact line is written a few lines before or after its boundary


def _focus_of(content) -> str | None:
    """The person's focus text typed after /compact (`<command-args>`), or None when they typed none."""
    for text in map(str, _texts(content)):
        if COMPACT_COMMAND in text:
            found = _COMMAND_ARGS.search(text)
            return found.group(1).strip() or None if found else None
    return None


def _attach_focus(records: list[Record], commands: list[tuple[int, str]]) -> None:
    """Each manual boundary gets the focus text of the nearest /compact line (as the person typed it)."""
    for record in records:
        if record.kind == "boundary" and record.boundary.get("trigger") == "manual" and commands:
            line, focus = min(commands, key=lambda command: abs(command[0] - record.line))
            if abs(line - record.line) <= FOCUS_REACH_LINES:
                record.boundary["focus"] = focus


def _unwritten_boundary(summary: Record, previous: str, trigger: str) -> Record:
    """The boundary a 1.0.x log does not write before a compaction's summary (see the module)."""
    return Record(summary.line, f"boundary:{summary.uuid}", previous, "boundary", summary.timestamp,
                  boundary={"trigger": trigger, "pre_tokens": None})


def _read_records(lines: JsonLines, sidechains: bool = False
                  ) -> tuple[list[Record], _Skipped, str | None, str | None]:
    records: list[Record] = []
    skipped = _Skipped()
    session_id = version = None
    previous: str | None = None
    asked = False  # the person typed /compact since the last response
    commands: list[tuple[int, str]] = []  # (line, focus text) of each /compact the person typed with one
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
        elif record.parent is None and record.compact_summary and previous is not None:
            boundary = _unwritten_boundary(record, previous, "manual" if asked else "auto")
            records.append(boundary)  # 1.0.x: the summary's new root continues the line before it
            record.parent = boundary.uuid
        if record.is_message:
            asked = (asked or _asks_compact(record.content)) if record.role == "user" else False
            if record.role == "user" and (focus := _focus_of(record.content)) is not None:
                commands.append((record.line, focus))
        records.append(record)
        previous = record.uuid
    _attach_focus(records, commands)
    return records, skipped, session_id, version
