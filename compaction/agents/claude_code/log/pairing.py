"""The kept lines of a Claude Code log with their tool pairs as Claude Code sends them: before each
request it repairs the pairs (ensureToolResultPairing in its utils/messages.ts, as public copies of
its source show), and so does the importer, saying so each time:
- a call never answered while the session went on (its result line is not in the file: a compaction
  came first, or the line was never written) gets the error result Claude Code puts in its place;
- a result answering no kept call (the line of its call is not in the file) is left out.
A call still waiting at the end of the log is left as it is: the log stopped while the tool ran.
"""

from compaction.agents.claude_code.log.branch import call_ids, result_ids, same_response
from compaction.agents.claude_code.log.records import Record
from compaction.importers.checks import only_tool_results
from compaction.model.conversation import LoadWarning

# Claude Code's SYNTHETIC_TOOL_RESULT_PLACEHOLDER, sent with is_error: true
MISSING_RESULT = "[Tool result missing due to internal error]"


def repair_pairs(records: list[Record], known: set[str]) -> tuple[list[Record], list[LoadWarning]]:
    """`records`: the kept lines in file order; `known`: the uuids of every line of the file."""
    calls = {call for record in records for call in call_ids(record)}
    kept: list[Record] = []
    warnings: list[LoadWarning] = []
    for record in records:
        rest = _without_orphans(record, calls)
        if rest is not record.content:
            whose = "the line of its call is not in the file" if record.source_tool and \
                record.source_tool not in known else "its call is not among the kept lines"
            warnings.extend(LoadWarning(
                f"tool_result {block['tool_use_id']!r} answers no call ({whose}); left out, as Claude Code "
                "drops a result with no call before it", line=record.line, kind="result_without_call")
                for block in record.content if not any(block is b for b in rest))
            if not rest:
                continue
            record.content = rest
        kept.append(record)
    return _answer_missing(kept, warnings)


def _is_result(block) -> bool:
    return isinstance(block, dict) and block.get("type") == "tool_result"


def _without_orphans(record: Record, calls: set[str]):
    """The record's content without the results that answer no kept call (the content itself when all do)."""
    content = record.content
    if record.role != "user" or not isinstance(content, list) or \
            all(b.get("tool_use_id") in calls for b in content if _is_result(b)):
        return content
    return [b for b in content if not (_is_result(b) and b.get("tool_use_id") not in calls)]


def _answer_missing(records: list[Record], warnings: list[LoadWarning]) -> tuple[list[Record], list[LoadWarning]]:
    """Put an error result for each call never answered before the line the session went on with."""
    answered = {call for record in records for call in result_ids(record)}
    inserts: dict[int, Record] = {}  # position in `records` -> the results to put before that line
    for position, record in enumerate(records):
        missing = [call for call in call_ids(record) if call not in answered]
        after = _went_on_at(records, position) if missing else None
        if after is None:
            continue  # nothing missing, or still waiting at the end of the log
        synthetic = inserts.setdefault(after, Record(record.line, f"synthetic:{record.uuid}", record.uuid, "message",
                                                     role="user", content=[]))
        synthetic.content.extend({"type": "tool_result", "tool_use_id": call, "content": MISSING_RESULT,
                                  "is_error": True} for call in missing)
        warnings.extend(LoadWarning(
            f"tool_use {call!r} has no result in the log, yet the session went on (line {records[after].line}); "
            f"an error result stands in for it, as Claude Code sends one: {MISSING_RESULT!r}",
            line=record.line, kind="result_missing") for call in missing)
    if not inserts:
        return records, warnings
    out = []
    for position, record in enumerate(records):
        if position in inserts:
            out.append(inserts[position])
        out.append(record)
    return out, warnings


def _went_on_at(records: list[Record], position: int) -> int | None:
    """Where the session went on after the response at `position`: the next compaction boundary, turn of
    the person or other response (its own later lines and the results of its calls come before)."""
    response = records[position]
    for later in range(position + 1, len(records)):
        record = records[later]
        if record.kind == "boundary":
            return later
        if not record.is_message:
            continue
        if record.role == "assistant" and not same_response(response, record):
            return later
        if record.role == "user" and not only_tool_results(record.content):
            return later
    return None
