"""The kept lines of a Claude Code log as API messages: one assistant message per response, one user
message per turn, with what each response recorded (usage) and when each message was written.

- Assistant lines of one response (same message.id or requestId) become one message, also when their
  tool results were written between them (tools run while the response streams). Lines with no id to
  tell them apart are one response while nothing else comes between them.
- Consecutive user lines are one turn (the Messages API merges consecutive same-role turns itself):
  the results of parallel calls, an interruption note after them.
- Tool results are put in the order of the calls they answer.
- A compaction boundary starts afresh: its summary line is a message of its own; the attachment lines
  written after the summary (2.1.92 on: files re-attached, plan, skills, hook output) are what the first
  call after it carried besides the summary: the boundary lists them (`attachments`); those written before
  the first response (`start_attachments`: skills listed, hook output, tool deltas) are what the first call
  carried besides its prompt.
- A response Claude Code wrote itself (`<synthetic>`: no API call) is a note, not a message: the turns
  around it are one turn, as Claude Code sends them; `notes` keeps where it was and its text.
"""

from dataclasses import dataclass, field
from typing import Any

from compaction.agents.claude_code.log.records import Record
from compaction.importers.checks import only_tool_results
from compaction.model.conversation import LoadWarning
from compaction.model.messages import tool_uses


@dataclass
class Assembled:
    messages: list[dict] = field(default_factory=list)
    usage: list[dict | None] = field(default_factory=list)
    timestamps: list[str | None] = field(default_factory=list)
    boundaries: list[dict] = field(default_factory=list)
    summary_indices: list[int] = field(default_factory=list)
    notes: list[dict] = field(default_factory=list)  # the <synthetic> responses: {"index", "line", "text"}
    start_attachments: list[dict] = field(default_factory=list)  # before the first response
    warnings: list[LoadWarning] = field(default_factory=list)
    # per assistant message: where the blocks of its last line start, and those blocks
    last_line: dict[int, tuple[int, list]] = field(default_factory=dict)


def assemble(records: list[Record]) -> Assembled:
    out = Assembled()
    open_response: tuple[str | None, int] | None = None  # (response key, index) of the response being written
    fresh = True  # nothing to merge into: the start, or just after a compaction boundary
    after_summary = False  # since the last boundary's summary, no response yet: its attachments come here
    responded = False  # a response was placed: the session's first call is made
    for record in records:
        if record.kind == "boundary":
            out.boundaries.append({"index": len(out.messages), **record.boundary})
            open_response, fresh = None, True
            continue
        if record.attachment is not None and after_summary:
            out.boundaries[-1].setdefault("attachments", []).append(record.attachment)
        elif record.attachment is not None and not responded and not out.boundaries:
            out.start_attachments.append(record.attachment)
        if not record.is_message:
            continue
        if record.synthetic:
            out.notes.append({"index": len(out.messages), "line": record.line, "text": _text(record.content)})
            continue
        after_summary = False
        if record.role == "assistant":
            responded = True
            index = _place_assistant(out, record, open_response, fresh)
            if open_response is not None and open_response[1] == index:
                open_response = (open_response[0] or record.response_key, index)
            else:
                open_response = (record.response_key, index)
            if record.usage is not None:
                # the input side is the same on every line of a response, but only the last line has the
                # final output count (earlier ones are streaming snapshots): the last one holds
                out.usage[index] = record.usage
        else:
            index = _place_user(out, record, fresh)
            if not only_tool_results(record.content):
                open_response = None  # the person spoke: the response is over
            if record.compact_summary:
                out.summary_indices.append(index)
                after_summary = bool(out.boundaries) and out.boundaries[-1]["index"] == index
        fresh = False
        out.warnings.extend(LoadWarning(text, index=index, line=record.line) for text in record.warnings)
    for index in range(1, len(out.messages)):
        _results_in_call_order(out.messages, index)
    return out


def _append(out: Assembled, role: str, content: Any, record: Record) -> int:
    out.messages.append({"role": role, "content": content})
    out.usage.append(None)
    out.timestamps.append(record.timestamp or None)
    return len(out.messages) - 1


def _place_assistant(out: Assembled, record: Record, open_response: tuple[str | None, int] | None,
                     fresh: bool) -> int:
    last = len(out.messages) - 1
    key = record.response_key
    if not fresh and last >= 0 and out.messages[last]["role"] == "assistant" and \
            (key is None or open_response is None or open_response[0] is None or open_response[0] == key):
        target = last  # consecutive lines of one response
    elif open_response is not None and key is not None and open_response[0] == key:
        target = open_response[1]  # the response goes on after results written while it streamed
    else:
        index = _append(out, "assistant", record.content, record)
        out.last_line[index] = (0, as_blocks(record.content))
        return index
    message = out.messages[target]
    content, blocks = as_blocks(message["content"]), as_blocks(record.content)
    start, previous = out.last_line.get(target, (len(content), []))
    if previous and is_snapshot(previous, blocks):
        content = content[:start]  # the line repeats the previous one, grown: it replaces it
    else:
        start = len(content)
    message["content"] = content + blocks
    out.last_line[target] = (start, blocks)
    return target


def is_snapshot(previous: list, blocks: list) -> bool:
    """Whether a line holds the previous line's blocks again, grown (logs written from streaming
    snapshots): as many blocks or more, of the same types, the same tool calls, and either a tool call
    repeated or every earlier text repeated as it was or longer. Block-per-line logs never repeat."""
    if len(blocks) < len(previous):
        return False
    grown_text = True
    for old, new in zip(previous, blocks, strict=False):
        if not (isinstance(old, dict) and isinstance(new, dict)) or old.get("type") != new.get("type"):
            return False
        kind = old.get("type")
        if kind == "tool_use":
            if old.get("id") != new.get("id"):
                return False
        elif kind in ("text", "thinking"):
            grown_text = grown_text and str(new.get(kind, "")).startswith(str(old.get(kind, "")))
        elif old != new:
            return False
    repeated_call = any(isinstance(b, dict) and b.get("type") == "tool_use" for b in previous)
    return repeated_call or grown_text


def _place_user(out: Assembled, record: Record, fresh: bool) -> int:
    last = len(out.messages) - 1
    if fresh or record.compact_summary or last < 0 or out.messages[last]["role"] != "user" \
            or last in out.summary_indices:
        return _append(out, "user", record.content, record)
    message = out.messages[last]
    message["content"] = as_blocks(message["content"]) + as_blocks(record.content)
    return last


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict)) if isinstance(content, list) else ""


def as_blocks(content: Any) -> list:
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    return list(content) if isinstance(content, list) else []


def _results_in_call_order(messages: list[dict], index: int) -> None:
    """Sort the tool_result blocks of a user message by the order of the calls before it, in place
    (the message is the importer's own)."""
    message, previous = messages[index], messages[index - 1]
    if message["role"] != "user" or previous["role"] != "assistant" or not isinstance(message["content"], list):
        return
    order = {use.get("id"): n for n, use in enumerate(tool_uses(previous))}
    content = message["content"]
    positions = [j for j, b in enumerate(content) if isinstance(b, dict) and b.get("type") == "tool_result"]
    blocks = [content[j] for j in positions]
    ranked = sorted(blocks, key=lambda b: order.get(b.get("tool_use_id"), len(order)))
    if ranked != blocks:
        for j, block in zip(positions, ranked, strict=True):
            content[j] = block
